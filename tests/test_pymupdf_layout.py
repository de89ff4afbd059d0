"""pymupdf's layout models stay unloaded in a Labeler process (they cost ~0.7 s and ~55 MiB)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROBE = """
import json, sys
import labeler.pdf.document, pymupdf
doc = pymupdf.open(); page = doc.new_page(); page.insert_text((50, 60), "Aorta")
print(json.dumps({
    "text": page.get_text().strip(),
    "pixmap": page.get_pixmap(dpi=72).width,
    "layout": sys.modules.get("pymupdf.layout") is not None,
    "llm": sys.modules.get("pymupdf4llm") is not None,
    "onnx": "onnxruntime" in sys.modules,
}))
"""


def _probe(**env: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    return json.loads(out.stdout)


def test_importing_labeler_keeps_pymupdf_working_without_its_layout_models() -> None:
    seen = _probe()
    assert seen == {"text": "Aorta", "pixmap": 595, "layout": False, "llm": False, "onnx": False}


def test_the_switch_lets_pymupdf_load_them_when_asked() -> None:
    seen = _probe(LABELER_PYMUPDF_LAYOUT="1")
    assert seen["text"] == "Aorta"
    assert seen["layout"] is True
