"""The OCR's copy of a clip smooths only the raster images the render enlarges (``resample``).

Gray's elbow plate (313 pixels wide) pasted 313 points wide and rendered at 200 dpi is drawn
2.8 times its pixels, in blocks; a JPEG pasted at its own pixel size and the same plate
rendered at 72 dpi are not enlarged and must reach the OCR exactly as rendered.
"""

from __future__ import annotations

import numpy as np
import pymupdf

from labeler.erase.ocr import DEFAULT_DETECTION, SMALL_TEXT, read_text
from labeler.erase.resample import MIN_MAGNIFICATION, enlarged_images, smoothed
from tests.erase.elbow_plate import HEIGHT, PLATE, WIDTH
from tests.paths import EXTERNAL_FIGURES

TOOTH = EXTERNAL_FIGURES / "openstax-ap2e-2409_Tooth.jpg"


def _page() -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page(width=1000, height=1000)
    page.insert_image(pymupdf.Rect(20, 20, 20 + WIDTH, 20 + HEIGHT), filename=str(PLATE))
    # the tooth JPEG (1281 px wide) shown 461 points wide: 1281 pixels at 200 dpi, its own size
    page.insert_image(pymupdf.Rect(400, 20, 861, 20 + 461 * 1010 / 1281), filename=str(TOOTH))
    return page


def _render(page: pymupdf.Page, dpi: int) -> tuple[np.ndarray, tuple[int, int]]:
    pix = page.get_pixmap(dpi=dpi)
    rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]
    return rgb.copy(), (pix.x, pix.y)


def test_only_the_image_drawn_larger_than_its_pixels_is_enlarged():
    page = _page()
    rgb, origin = _render(page, 200)
    (plate,) = enlarged_images(page.get_image_info(), 200 / 72, origin, rgb.shape)
    assert abs(plate.magnification - 200 / 72) < 0.01
    zoom = 200 / 72
    assert plate.box == (round(20 * zoom), round(20 * zoom), round(333 * zoom), round(670 * zoom))
    rgb72, origin72 = _render(page, 72)
    assert enlarged_images(page.get_image_info(), 1.0, origin72, rgb72.shape) == []
    assert MIN_MAGNIFICATION > 1.5  # the largest OpenStax placement the tests use


def test_smoothing_changes_the_enlarged_image_only():
    page = _page()
    rgb, origin = _render(page, 200)
    images = enlarged_images(page.get_image_info(), 200 / 72, origin, rgb.shape)
    out = smoothed(rgb, images)
    x0, y0, x1, y1 = images[0].box
    outside = np.ones(rgb.shape[:2], bool)
    outside[y0:y1, x0:x1] = False
    assert (out[outside] == rgb[outside]).all()

    # MuPDF's blocks: most pixels repeat their left neighbour; after smoothing few do
    def repeats(a: np.ndarray) -> float:
        return float((a[:, 1:] == a[:, :-1]).all(axis=2).mean())

    ink = rgb[y0:y1, x0:x1]
    assert repeats(ink) > 0.5
    assert repeats(out[y0:y1, x0:x1]) < 0.5 * repeats(ink)
    assert smoothed(rgb, []) is rgb


def test_small_text_settings_do_not_stay_on_the_engine():
    """rapidocr keeps a setting passed to one call; every read passes its own."""
    page = _page()
    rgb, _ = _render(page, 72)
    crop = np.ascontiguousarray(rgb[20:700, 400:861])
    before = read_text(crop)
    read_text(crop, detection=SMALL_TEXT)
    assert read_text(crop, detection=DEFAULT_DETECTION) == before
    assert before  # the tooth's labels are read
