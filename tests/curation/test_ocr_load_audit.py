"""Issue #11, speed: vector-text figures never load OCR; the engine is built once per process.

Each case runs in a fresh interpreter (what a cold ``labeler add-item`` is) and goes through
the whole curation path: erasure, key, store write and the residual-label read-back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from labeler.erase import ocr
from tests.paths import EXTERNAL_FIGURES

ADD = """
import json, sys
from pathlib import Path

loaded = []
if sys.argv[2] == "count":
    import onnxruntime

    real = onnxruntime.InferenceSession

    class Counted(real):
        def __init__(self, path, *args, **kwargs):
            loaded.append(Path(path).name)
            super().__init__(path, *args, **kwargs)

    onnxruntime.InferenceSession = Counted

from labeler.curation import add_item_from_document
from labeler.store import Project

project = Project.create(Path(sys.argv[1]))
items = [add_item_from_document(project, path, 1) for path in sys.argv[3:]]
check = [project.residual_checks.get(item.id).method for item in items]
print(json.dumps({
    "methods": [item.erase_method for item in items],
    "checks": check,
    "ocr_loaded": any(m == "rapidocr" or m.startswith("rapidocr.") for m in sys.modules),
    "onnx_loaded": "onnxruntime" in sys.modules,
    "pipeline_imported": "rapidocr.main" in sys.modules or "omegaconf" in sys.modules,
    "models_loaded": loaded,
}))
"""


def _add(tmp_path: Path, mode: str, *figures: str) -> dict:
    argv = [sys.executable, "-c", ADD, str(tmp_path / "project"), mode]
    argv += [str(EXTERNAL_FIGURES / name) for name in figures]
    out = subprocess.run(argv, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_adding_a_vector_text_figure_and_checking_it_loads_no_ocr(tmp_path):
    seen = _add(tmp_path, "plain", "bone-cross-section.svg")
    assert seen["methods"] == ["vector-text"]
    assert seen["checks"] == ["pdf-text"]  # read back from the question PDF's text
    assert seen["ocr_loaded"] is False
    assert seen["onnx_loaded"] is False


def test_each_ocr_model_is_loaded_once_and_reused(tmp_path):
    seen = _add(tmp_path, "count", "openstax-ap2e-2409_Tooth.jpg", "elbow-joint-gray329.png")
    assert seen["methods"] == ["ocr", "ocr"]
    assert seen["checks"] == ["pdf-text+ocr", "pdf-text+ocr"]
    # two figures erased and two questions read back: each model loaded once
    assert sorted(seen["models_loaded"]) == sorted(
        path.name for path in ocr.bundled_model_paths().values()
    )
    # the models run without rapidocr's pipeline, whose import parses its model tables (1.4-1.9 s)
    assert seen["pipeline_imported"] is False
