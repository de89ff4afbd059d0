"""Labeler's PP-OCR steps read exactly what rapidocr's pipeline reads from the same models.

``labeler.erase.ppocr`` replaced rapidocr's pipeline to save its import (issue #11, cold
``add-item``). That is only allowed because nothing a curator sees changes: on the real figures
and on images that take each of the pipeline's side roads (a strip that gets padded, an image
too small or too large for the detector, upside-down text, nothing to read), the quads, texts
and scores are rapidocr's, bit for bit, under both detection settings Labeler uses.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pymupdf
import pytest
from PIL import Image

from labeler.erase import ocr
from labeler.erase.ppocr import PpOcr
from tests.paths import EXTERNAL_FIGURES

SETTINGS = [ocr.DEFAULT_DETECTION, ocr.SMALL_TEXT]


@pytest.fixture(scope="module")
def reference() -> Any:
    """rapidocr's own pipeline over the same bundled models and thread count."""
    from rapidocr import RapidOCR

    params: dict[str, Any] = {
        "Global.log_level": "error",
        "EngineConfig.onnxruntime.intra_op_num_threads": ocr.INTRA_OP_THREADS,
    }
    for section, path in ocr.bundled_model_paths().items():
        params[f"{section}.model_path"] = str(path)
    return RapidOCR(params=params)


@pytest.fixture(scope="module")
def ours() -> PpOcr:
    return PpOcr(ocr.bundled_model_paths(), threads=ocr.INTRA_OP_THREADS)


def _figure(name: str, scale: float = 1.0) -> np.ndarray:
    image = Image.open(EXTERNAL_FIGURES / name).convert("RGB")
    if scale != 1.0:
        image = image.resize((round(image.width * scale), round(image.height * scale)))
    return np.ascontiguousarray(np.asarray(image)[:, :, ::-1])


def _rendered(width: float, height: float, lines: list[tuple[str, float, float, int]], dpi=144):
    """A page of the given size (points) with (text, x, y, rotate) lines, as BGR pixels."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    for text, x, y, rotate in lines:
        page.insert_text((x, y), text, fontsize=11, rotate=rotate)
    pix = page.get_pixmap(dpi=dpi)
    rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)
    return np.ascontiguousarray(rgb[:, :, ::-1])


def _compare(reference: Any, ours: PpOcr, bgr: np.ndarray, detection: ocr.Detection) -> int:
    settings = {"box_thresh": detection.box_thresh, "unclip_ratio": detection.unclip_ratio}
    theirs = reference(bgr, **settings)
    mine = ours.read(bgr, **settings)
    if theirs.txts is None:
        assert mine == []
        return 0
    assert [line.text for line in mine] == list(theirs.txts)
    assert [line.score for line in mine] == list(theirs.scores)
    assert np.array_equal(np.array([line.quad for line in mine]), np.asarray(theirs.boxes))
    assert all(line.quad.dtype == np.asarray(theirs.boxes).dtype for line in mine)
    return len(mine)


@pytest.mark.parametrize("detection", SETTINGS, ids=["default", "small-text"])
@pytest.mark.parametrize(
    ("name", "scale"),
    [
        ("openstax-ap2e-2409_Tooth.jpg", 1.0),
        ("openstax-ap2e-1404_The_Structures_of_the_Ear.jpg", 1.0),
        ("openstax-ap2e-0312_Animal_Cell_and_Components.jpg", 0.4),
        ("elbow-joint-gray329.png", 1.0),
    ],
)
def test_real_figures_read_the_same(reference, ours, name, scale, detection):
    assert _compare(reference, ours, _figure(name, scale), detection) >= 8


@pytest.mark.parametrize(
    ("printed", "bgr"),
    [
        # 12 px high: enlarged to 30, then nine times as wide as high: padded with black rows
        ("Femur", _rendered(120, 12, [("Femur", 4, 10, 0)], dpi=72)),
        # over 2,000 px long: reduced before detection
        ("Left ventricle", _rendered(760, 200, [("Left ventricle", 40, 60, 0)], dpi=200)),
        # printed upside down: the orientation classifier turns its crop
        ("Pulmonary artery", _rendered(300, 160, [("Pulmonary artery", 250, 60, 180)])),
        # running up the page: the tall crop is turned a quarter
        ("Trachea", _rendered(160, 300, [("Trachea", 60, 250, 90)])),
        ("", np.full((200, 300, 3), 255, np.uint8)),
    ],
)
def test_each_side_road_reads_the_same(reference, ours, printed, bgr):
    _compare(reference, ours, bgr, ocr.DEFAULT_DETECTION)
    settings = ocr.DEFAULT_DETECTION
    read = ours.read(bgr, box_thresh=settings.box_thresh, unclip_ratio=settings.unclip_ratio)
    assert [line.text for line in read] == ([printed] if printed else [])
