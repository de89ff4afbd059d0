"""Real vector figures placed on textbook pages the way publishers place them erase as at 1x.

Each openly licensed SVG in ``../shared/external-figures`` is converted to PDF and drawn on a
generated textbook page with ``show_pdf_page`` (a Form XObject under a scaling transform, as
publishers' layout tools and pdf-merging do), at several scales and positions, with a chapter
heading, body text around it and a caption under it. For every placement:

* the key equals the printed labels (the same names as the figure at full size);
* every pixel of the figure outside the labels' own boxes survives erasure (compared with the
  untouched render of the same clip);
* no key text is left: no text in the question PDF, and for outline labels no dark glyph path
  left inside a label box.
"""

from __future__ import annotations

import io

import numpy as np
import pymupdf
import pytest
from PIL import Image

from labeler.erase import erase_figure
from tests.erase.test_erase_real_figures import BONE_LABELS
from tests.paths import EXTERNAL_FIGURES

BODY = (
    "Bones are organs made of several tissues. The diaphysis is a hollow tube of compact bone "
    "around a cavity; the epiphyses at either end are filled with spongy bone. "
) * 3

MEMBRANE_LABELS = {
    "Protein channel (transport protein)",
    "Cholesterol",
    "Glycolipid",
    "Peripherial protein",  # the original's spelling
    "Filaments of cytoskeleton",
    "Alpha-Helix protein (Integral protein)",
    "Phospholipid bilayer",
    "Phospholipid molecule",
    "Hydrophobic tails",
    "Integral protein (Globular protein)",
    "Surface protein",
    "Glycoprotein",
}


def _figure(name: str) -> pymupdf.Document:
    return pymupdf.open("pdf", pymupdf.open(EXTERNAL_FIGURES / name).convert_to_pdf())


def _place(name: str, scale: float, left: float) -> tuple[pymupdf.Document, tuple]:
    """A textbook page with the figure drawn at ``scale``, ``left`` points from the margin."""
    figure = _figure(name)
    width, height = figure[0].rect.width * scale, figure[0].rect.height * scale
    page_width = max(612.0, width + left + 72)
    doc = pymupdf.open()
    page = doc.new_page(width=page_width, height=792)
    page.insert_text((54, 54), "Chapter 6  Bone Tissue and the Skeletal System", fontsize=16)
    page.insert_textbox(pymupdf.Rect(54, 70, page_width - 54, 150), BODY, fontsize=9)
    top = 170.0
    target = pymupdf.Rect(54 + left, top, 54 + left + width, top + height)
    page.show_pdf_page(target, figure, 0)
    caption_y = target.y1 + 16
    page.insert_text((54, caption_y), "Figure 6.3  Anatomy of a long bone.", fontsize=9)
    page.insert_textbox(pymupdf.Rect(54, caption_y + 10, page_width - 54, 780), BODY, fontsize=9)
    return pymupdf.open("pdf", doc.tobytes()), tuple(target)


def _rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _outside_labels_kept(result, clip: tuple, dpi: int) -> float:
    """Share of figure pixels outside the labels' boxes (grown 2 pt) that erasure left as is."""
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    assert question.shape == answer.shape
    zoom = dpi / 72
    outside = np.ones(question.shape[:2], dtype=bool)
    for label in result.labels:
        x0, y0, x1, y1 = label.bbox
        outside[
            max(0, int((y0 - clip[1] - 2) * zoom)) : int((y1 - clip[1] + 2) * zoom) + 1,
            max(0, int((x0 - clip[0] - 2) * zoom)) : int((x1 - clip[0] + 2) * zoom) + 1,
        ] = False
    same = np.abs(question - answer).max(axis=2) <= 24
    return float(same[outside].mean())


@pytest.mark.parametrize(("scale", "left"), [(0.35, 0.0), (0.53, 40.0), (0.8, 12.0), (1.0, 0.0)])
def test_bone_figure_placed_at_any_scale_erases_as_at_full_size(scale, left):
    doc, clip = _place("bone-cross-section.svg", scale, left)
    result = erase_figure(doc, 1, clip, dpi=110)
    assert sorted(label.text for label in result.labels) == BONE_LABELS
    assert pymupdf.open("pdf", result.question_pdf)[0].get_text().strip() == ""
    assert _outside_labels_kept(result, clip, 110) >= 0.995


@pytest.mark.parametrize(("scale", "left"), [(0.53, 0.0), (0.7, 30.0), (1.0, 0.0)])
def test_membrane_outline_labels_placed_small_keep_the_drawing(scale, left):
    doc, clip = _place("cell-membrane-components.svg", scale, left)
    before = len(doc[0].get_drawings())
    result = erase_figure(doc, 1, clip, dpi=150)
    assert result.method == "outline"
    assert {label.text for label in result.labels} >= MEMBRANE_LABELS
    question = pymupdf.open("pdf", result.question_pdf)[0]
    removed = before - len(question.get_drawings())
    # the figure's lettering is 285 glyph paths (LICENSES.md); nothing else may go
    assert 250 <= removed <= 330, removed
    assert _outside_labels_kept(result, clip, 150) >= 0.995
    boxes = [pymupdf.Rect(label.bbox) for label in result.labels]
    for drawing in question.get_drawings():
        rect = pymupdf.Rect(drawing["rect"])
        if drawing["type"] == "f" and drawing.get("fill") == (0.0, 0.0, 0.0):
            assert not any(box.contains(rect) for box in boxes)
