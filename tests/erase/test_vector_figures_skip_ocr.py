"""A figure whose labels are vector text never loads the OCR engine (seconds per process)."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
from labeler.data import SAMPLE_BOOK, data_file
from labeler.erase import erase_figure
from labeler.pdf.document import open_document
from labeler.samples.book import layout

heart = layout()[0]
result = erase_figure(open_document(data_file(SAMPLE_BOOK)), heart.page, heart.clip)
print(json.dumps({
    "labels": len(result.labels),
    "method": result.method,
    "ocr_loaded": any(m == "rapidocr" or m.startswith("rapidocr.") for m in sys.modules),
    "onnx_loaded": "onnxruntime" in sys.modules,
}))
"""


def test_erasing_a_vector_text_figure_loads_no_ocr() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout)
    assert seen["method"] == "vector-text"
    assert seen["labels"] >= 5
    assert seen["ocr_loaded"] is False
    assert seen["onnx_loaded"] is False
