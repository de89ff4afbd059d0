"""Raster labels on a textured and on a flat coloured fill: no word shape is left.

A label erased from a texture must not leave a smooth patch in the shape of its word (what
inpainting alone gives): where the glyphs were, the question shows texture as busy as the
texture around it and of the same colour. A leader from a label on white paper that runs
onto the textured part's outline ends there, not along the outline.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from PIL import Image

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from labeler.erase.texture import detail
from tests.erase.textured_figure import LABELS, NAMES, SCALE, TEXTURE, document, glyph_mask

DPI = 72 * SCALE


@pytest.fixture(scope="module")
def erased():
    result = erase_figure(document(), 1, dpi=DPI)
    question = np.asarray(Image.open(io.BytesIO(result.question_png)).convert("RGB"))
    answer = np.asarray(Image.open(io.BytesIO(result.answer_png)).convert("RGB"))
    return result, question, answer


def _box(label) -> tuple[slice, slice]:
    """The label's line box in pixels (from its baseline, font size 11)."""
    x, y = label.origin
    return slice(int((y - 11) * SCALE), int((y + 3) * SCALE)), slice(
        int(x * SCALE), int((x + 6.2 * len(label.text)) * SCALE)
    )


def test_key_and_nothing_readable(erased):
    result, question, _ = erased
    assert sorted(label.text for label in result.labels) == NAMES
    assert read_text(question) == []


@pytest.mark.parametrize("text", ["Spongy bone", "Red marrow"])
def test_no_smooth_word_shape_on_the_texture(erased, text):
    _, question, answer = erased
    label = next(label for label in LABELS if label.text == text)
    rows, cols = _box(label)
    glyphs = glyph_mask()[rows, cols]
    around = ~glyphs
    for image, expect_shape in ((answer, True), (question, False)):
        crop = image[rows, cols].astype(float)
        colour_gap = np.abs(crop[glyphs].mean(axis=0) - crop[around].mean(axis=0)).max()
        fine = detail(image[rows, cols])
        busy = fine[glyphs].std() / fine[around].std()
        shows = colour_gap > 10 or not 0.6 <= busy <= 1.6
        assert shows == expect_shape, (text, colour_gap, busy)


def test_flat_colour_is_filled_with_that_colour(erased):
    _, question, answer = erased
    label = next(label for label in LABELS if label.text == "Periosteum")
    rows, cols = _box(label)
    fill = np.median(answer[rows, cols].reshape(-1, 3), axis=0)
    assert np.abs(question[rows, cols].astype(int) - fill).max() <= 6


def test_pixels_outside_the_labels_are_unchanged(erased):
    result, question, answer = erased
    outside = np.ones(question.shape[:2], bool)
    for label in result.labels:
        x0, y0, x1, y1 = (v * SCALE for v in label.bbox)
        outside[int(y0) : math.ceil(y1), int(x0) : math.ceil(x1)] = False
    assert np.array_equal(question[outside], answer[outside])


def test_the_leader_ends_on_the_outline_it_meets(erased):
    result, _, _ = erased
    anchor = next(label.anchor for label in result.labels if label.text == "Compact bone")
    assert anchor is not None
    assert math.dist(anchor, (282, TEXTURE.y0)) <= 2.5
