"""OCR of burned-in labels: what it reads, what it drops, and that it stays offline."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from rapidfuzz import fuzz

from labeler.erase import ocr
from labeler.errors import LabelerError

ROOT = Path(__file__).resolve().parents[2]

# Labels that a line crosses: the engine reads the stroke as a glyph ("Vaquole" for
# "Vacuole" when a vertical line runs through the "c", "—Membrane" when a line runs
# into the word). These quirks are in the pixels, so for them a close match is accepted.
CROSSED = {"Nucleus", "Vacuole", "Membrane", "Cytoplasm"}


def _norm(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def _iou(a, b) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area


def test_reads_every_label_with_its_box(figure):
    found = ocr.read_text(figure.rgb)
    assert len(found) == len(figure.texts)
    for text, box in zip(figure.texts, figure.boxes, strict=True):
        best = max(found, key=lambda b: _iou(b.bbox, box))
        assert _iou(best.bbox, box) > 0.5, (text, best)
        if text in CROSSED:
            assert fuzz.ratio(_norm(best.text), _norm(text)) >= 80, (text, best.text)
        else:
            assert best.text.lower() == text.lower()
        assert 0.8 <= best.confidence <= 1.0
        assert abs(best.angle) < 5


def test_runs_with_the_network_disabled(figure, monkeypatch):
    """A fresh engine loads and reads with every socket refusing to connect."""

    def refuse(*args, **kwargs):
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    ocr._engine.cache_clear()
    texts = [b.text for b in ocr.read_text(figure.rgb)]
    assert "Ribosome" in texts


def test_blank_image_gives_no_boxes():
    assert ocr.read_text(np.full((120, 300, 3), 255, np.uint8)) == []


def test_low_confidence_lines_are_dropped(figure):
    everything = ocr.read_text(figure.rgb, min_confidence=0.0)
    strict = ocr.read_text(figure.rgb, min_confidence=0.999)
    assert {b.text for b in strict} < {b.text for b in everything}
    assert all(b.confidence >= 0.999 for b in strict)


def test_rejects_non_rgb_arrays():
    with pytest.raises(ValueError, match="RGB"):
        ocr.read_text(np.zeros((10, 10), np.uint8))
    with pytest.raises(ValueError, match="RGB"):
        ocr.read_text(np.zeros((10, 10, 3), np.float32))


def test_the_engine_uses_the_models_in_the_wheel():
    paths = ocr.bundled_model_paths()
    assert set(paths) == {"Det", "Cls", "Rec"}
    for path in paths.values():
        assert path.parent.parent.name == "rapidocr" and path.stat().st_size > 100_000


def test_missing_bundled_model_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(ocr._MODEL_ROLES, "Det", "_no-such-role_")
    with pytest.raises(LabelerError, match="never downloads"):
        ocr.bundled_model_paths()


def test_importing_the_module_does_not_load_the_engine():
    script = (
        "import sys, labeler.erase.ocr\n"
        "assert 'rapidocr' not in sys.modules and 'onnxruntime' not in sys.modules\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_reads_tilted_and_vertical_labels():
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((60, 250), "Vertical", fontsize=12, rotate=90)
    tilt = pymupdf.Matrix(-30)  # pymupdf turns counter-clockwise; image y runs down
    page.insert_text((150, 200), "Tilted label", fontsize=12, morph=(pymupdf.Point(150, 200), tilt))
    pix = page.get_pixmap(dpi=144)
    rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)
    found = {b.text: b for b in ocr.read_text(rgb)}
    assert set(found) == {"Vertical", "Tilted label"}
    assert 25 <= found["Tilted label"].angle <= 35
    x0, y0, x1, y1 = found["Vertical"].bbox
    assert y1 - y0 > 2 * (x1 - x0)
