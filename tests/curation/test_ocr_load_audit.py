"""Issue #11, speed: vector-text figures never load OCR; the engine is built once per process.

Each case runs in a fresh interpreter (what a cold ``labeler add-item`` is) and goes through
the whole curation path: erasure, key, store write and the residual-label read-back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.paths import EXTERNAL_FIGURES

ADD = """
import json, sys
from pathlib import Path

built = []
if sys.argv[2] == "count":
    import rapidocr

    real = rapidocr.RapidOCR

    class Counted(real):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    rapidocr.RapidOCR = Counted

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
    "engines_built": len(built),
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


def test_the_ocr_engine_is_built_once_and_reused(tmp_path):
    seen = _add(tmp_path, "count", "openstax-ap2e-2409_Tooth.jpg")
    assert seen["methods"] == ["ocr"]
    assert seen["checks"] == ["pdf-text+ocr"]
    # the erasure reads the figure, the residual check reads the question: one engine
    assert seen["engines_built"] == 1
