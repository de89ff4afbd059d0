"""Raster label erasure keeps leader lines; anchors land on the lines' far ends.

Ground truth comes from the synthetic figure in conftest.py: the same drawing
rendered with and without its label text, and its line layer alone.
"""

from __future__ import annotations

import cv2
import numpy as np
import pymupdf
import pytest

from labeler.erase.ocr import read_text
from labeler.erase.raster import erase_raster_labels, find_raster_anchors

LABELS_WITH_CROSSING_LINES = ("Nucleus", "Membrane", "Vacuole", "Cytoplasm")


def _in_boxes(shape, boxes) -> np.ndarray:
    mask = np.zeros(shape[:2], bool)
    for x0, y0, x1, y1 in boxes:
        mask[y0:y1, x0:x1] = True
    return mask


def _gray(rgb: np.ndarray) -> np.ndarray:
    return rgb.astype(np.float32).mean(axis=2)


def _surviving(figure, erased) -> np.ndarray:
    """Line pixels still (nearly) as dark as in the original."""
    return figure.lines & (_gray(erased) <= _gray(figure.rgb) + 40)


def _label_ink_left(figure, erased, boxes) -> int:
    """Pixels in the boxes that differ from the text-free render, away from lines."""
    near_lines = cv2.dilate(figure.lines.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    differs = np.abs(erased.astype(int) - figure.no_text.astype(int)).max(axis=2) > 60
    return int((differs & _in_boxes(figure.rgb.shape, boxes) & ~near_lines).sum())


@pytest.fixture(scope="module")
def erased(figure):
    return erase_raster_labels(figure.rgb, figure.boxes)


def test_the_figure_really_has_lines_through_its_label_boxes(figure):
    inside = figure.lines & _in_boxes(figure.rgb.shape, figure.boxes)
    assert inside.sum() > 400
    # box filling, as older datasets did, would cut them: the metric can fail
    filled = figure.rgb.copy()
    for x0, y0, x1, y1 in figure.boxes:
        filled[y0:y1, x0:x1] = 255
    assert _surviving(figure, filled).sum() / figure.lines.sum() < 0.8


def test_leader_and_crossing_lines_survive(figure, erased):
    survived = _surviving(figure, erased)
    assert survived.sum() / figure.lines.sum() >= 0.97
    inside = _in_boxes(figure.rgb.shape, figure.boxes)
    assert (survived & inside).sum() / (figure.lines & inside).sum() >= 0.95


def test_no_label_ink_remains(figure, erased):
    text_ink = np.abs(figure.rgb.astype(int) - figure.no_text.astype(int)).max(axis=2) > 60
    assert text_ink.sum() > 2000  # the labels really were there
    assert _label_ink_left(figure, erased, figure.boxes) <= 10


def test_pixels_outside_the_boxes_are_unchanged(figure, erased):
    outside = ~_in_boxes(figure.rgb.shape, figure.boxes)
    assert np.array_equal(erased[outside], figure.rgb[outside])


def test_white_surrounds_are_painted_white_and_coloured_ones_inpainted(figure, erased):
    changed = np.any(erased != figure.rgb, axis=2)
    vacuole = figure.boxes[figure.texts.index("Vacuole")]
    cytoplasm = figure.boxes[figure.texts.index("Cytoplasm")]
    x0, y0, x1, y1 = vacuole
    assert (erased[y0:y1, x0:x1][changed[y0:y1, x0:x1]] == 255).all()
    # on the yellow fill the erased text takes the fill's colour, not white
    x0, y0, x1, y1 = cytoplasm
    repaired = erased[y0:y1, x0:x1][changed[y0:y1, x0:x1]].astype(int)
    fill = figure.no_text[y0 + 3, x0 + 3].astype(int)
    assert len(repaired) > 300
    assert np.median(np.abs(repaired - fill).max(axis=1)) <= 12
    white = erase_raster_labels(figure.rgb, [cytoplasm], fill="white")
    assert (white[y0:y1, x0:x1] == 255).all(axis=2).sum() > 300


def test_ocr_boxes_end_to_end(figure):
    """OCR finds the labels, erasing its boxes leaves no readable text and the lines."""
    boxes = [b.bbox for b in read_text(figure.rgb)]
    assert len(boxes) == len(figure.texts)
    erased = erase_raster_labels(figure.rgb, boxes)
    assert read_text(erased) == []
    assert _surviving(figure, erased).sum() / figure.lines.sum() >= 0.97
    assert _label_ink_left(figure, erased, figure.boxes) <= 10


def test_anchors_land_on_the_leader_ends(figure):
    anchors = find_raster_anchors(figure.rgb, figure.boxes)
    assert len(anchors) == len(figure.boxes)
    for text, found, expected in zip(figure.texts, anchors, figure.anchors, strict=True):
        if expected is None:
            # only lines passing through, or none at all: no leader for this label
            assert found is None, text
        else:
            assert found is not None, text
            assert np.hypot(found[0] - expected[0], found[1] - expected[1]) <= 4, (text, found)


def test_anchors_still_found_after_erasure(figure, erased):
    """The erasure keeps the leaders attached to their labels."""
    assert find_raster_anchors(erased, figure.boxes) == find_raster_anchors(
        figure.rgb, figure.boxes
    )


def test_no_boxes_or_empty_boxes_change_nothing(figure):
    assert np.array_equal(erase_raster_labels(figure.rgb, []), figure.rgb)
    outside = [(-20, -20, -5, -5), (10, 10, 10, 40)]
    assert np.array_equal(erase_raster_labels(figure.rgb, outside), figure.rgb)
    assert find_raster_anchors(figure.rgb, outside) == [None, None]


def test_boxes_running_off_the_image_are_clipped(figure):
    width = figure.rgb.shape[1]
    x0, y0, _, y1 = figure.boxes[figure.texts.index("Ribosome")]
    out = erase_raster_labels(figure.rgb, [(x0, y0, width + 50, y1)])
    assert out.shape == figure.rgb.shape
    assert _label_ink_left(figure, out, [(x0, y0, width, y1)]) <= 10


def test_bad_arguments_are_rejected(figure):
    with pytest.raises(ValueError, match="fill"):
        erase_raster_labels(figure.rgb, figure.boxes, fill="black")
    with pytest.raises(ValueError, match="RGB"):
        erase_raster_labels(figure.rgb[:, :, 0], figure.boxes)
    with pytest.raises(ValueError, match="box"):
        erase_raster_labels(figure.rgb, [(1, 2, 3)])


def _hatched_label(with_text: bool) -> np.ndarray:
    """A label written over fine diagonal hatching, as in old engravings."""
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=100)
    shape = page.new_shape()
    for x in range(-100, 200, 4):
        shape.draw_line((x, 10), (x + 40, 90))
    shape.finish(color=(0.3, 0.3, 0.3), width=0.4)
    shape.commit()
    if with_text:
        page.insert_text((60, 56), "Radius", fontsize=14, fontname="tiro")
    pix = page.get_pixmap(dpi=144)
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()


def test_label_over_hatching_goes_and_the_hatching_stays():
    rgb, bare = _hatched_label(True), _hatched_label(False)
    font = pymupdf.Font("tiro")
    right = 60 + font.text_length("Radius", fontsize=14)
    box = (116, round((56 - 14 * font.ascender) * 2) - 4, round(right * 2) + 4, 120)
    x0, y0, x1, y1 = box
    erased = erase_raster_labels(rgb, [box])
    text = np.abs(rgb.astype(int) - bare.astype(int)).max(axis=2)[y0:y1, x0:x1] > 60
    left = np.abs(erased.astype(int) - bare.astype(int)).max(axis=2)[y0:y1, x0:x1] > 60
    hatch = bare.mean(axis=2)[y0:y1, x0:x1] < 160
    kept = hatch & (erased.mean(axis=2)[y0:y1, x0:x1] < 160)
    assert text.sum() > 400
    # what is left is where a hatch line runs through a letter stroke
    assert left.sum() <= 0.2 * text.sum()
    assert kept.sum() >= 0.9 * hatch.sum()
