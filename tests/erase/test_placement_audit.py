"""Audit of issue #11's acceptance on placements the other erasure tests do not cover.

``test_placed_figures`` (vector, ``show_pdf_page``) and ``test_pasted_figures`` (pasted image)
hold each shared figure at some scales; this file adds the smallest and the widest ones a
textbook prints, at other positions, and asks of every placement the three questions of the
acceptance list:

* the key equals the printed labels (``KEYS`` of ``test_pasted_figures``, read off the figures
  by eye; for the membrane's outline labels the vector path must give the same 17 names);
* every pixel of the figure outside the labels' own boxes is kept: the question render is
  compared with the untouched render of the same clip with the label boxes masked out;
* no key text is readable: none is extractable from the question PDF, and OCR of the question
  image reads no key name.

The elbow plate has its own test (``test_elbow_plate``, which pins what it reaches); the
small pasted placements are in ``test_pasted_small`` and pages with a /Rotate in
``test_rotated_pages``.
"""

from __future__ import annotations

import io
from functools import cache

import numpy as np
import pymupdf
import pytest
from PIL import Image

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from labeler.erase.residual import readable_in
from tests.erase.test_pasted_figures import KEYS, place
from tests.erase.test_placed_figures import _place

DPI = 150


def _rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _outside_labels(result, clip: tuple, dpi: int, shape: tuple[int, ...]) -> np.ndarray:
    """Mask of the clip's pixels farther than 1 pt from every label box."""
    zoom = dpi / 72
    outside = np.ones(shape[:2], dtype=bool)
    for label in result.labels:
        x0, y0, x1, y1 = label.bbox
        outside[
            max(0, int((y0 - clip[1] - 1) * zoom)) : int((y1 - clip[1] + 1) * zoom) + 1,
            max(0, int((x0 - clip[0] - 1) * zoom)) : int((x1 - clip[0] + 1) * zoom) + 1,
        ] = False
    return outside


def _readable(result, name: str) -> list[str]:
    read = read_text(np.ascontiguousarray(_rgb(result.question_png).astype(np.uint8)))
    return readable_in(KEYS[name], " ".join(box.text for box in read).lower())


@cache
def _vector(name: str, scale: float, left: float):
    doc, clip = _place(name, scale, left)
    return erase_figure(doc, 1, clip, dpi=DPI), clip


VECTOR = [
    ("bone-cross-section.svg", 0.3, 300.0),
    ("bone-cross-section.svg", 0.45, 200.0),
    ("cell-membrane-components.svg", 0.53, 0.0),
    ("cell-membrane-components.svg", 0.85, 20.0),
]


@pytest.mark.parametrize(("name", "scale", "left"), VECTOR)
def test_a_placed_vector_figure_keys_its_printed_labels(name, scale, left):
    result, _ = _vector(name, scale, left)
    assert sorted(label.text for label in result.labels) == KEYS[name]


@pytest.mark.parametrize(("name", "scale", "left"), VECTOR)
def test_a_placed_vector_figure_keeps_every_pixel_outside_its_labels(name, scale, left):
    result, clip = _vector(name, scale, left)
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    assert question.shape == answer.shape
    outside = _outside_labels(result, clip, DPI, question.shape)
    # MuPDF's anti-aliasing of an edge next to a removed glyph may move by a shade
    assert (np.abs(question - answer).max(axis=2)[outside] <= 24).mean() >= 0.995
    assert not np.array_equal(question[~outside], answer[~outside])


@pytest.mark.parametrize(("name", "scale", "left"), VECTOR)
def test_no_key_text_is_left_in_a_placed_vector_figure(name, scale, left):
    result, _ = _vector(name, scale, left)
    assert pymupdf.open("pdf", result.question_pdf)[0].get_text().strip() == ""
    assert _readable(result, name) == []


PASTED = [
    ("openstax-ap2e-2409_Tooth.jpg", 200.0, 300.0),
    ("openstax-ap2e-1404_The_Structures_of_the_Ear.jpg", 200.0, 300.0),
    ("openstax-ap2e-0312_Animal_Cell_and_Components.jpg", 504.0, 0.0),
    ("bone-cross-section.svg", 320.0, 180.0),
]


@cache
def _pasted(name: str, width: float, left: float):
    doc, clip = place(name, width, left)
    return erase_figure(doc, 1, clip, dpi=200), clip


@pytest.mark.parametrize(("name", "width", "left"), PASTED)
def test_a_pasted_figure_at_another_size_and_place_holds(name, width, left):
    result, clip = _pasted(name, width, left)
    assert result.method == "ocr"
    assert sorted(label.text for label in result.labels) == KEYS[name]
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    outside = _outside_labels(result, clip, 200, question.shape)
    assert np.array_equal(question[outside], answer[outside])
    assert not np.array_equal(question[~outside], answer[~outside])
    assert _readable(result, name) == []
