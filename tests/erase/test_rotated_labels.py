"""Labels written at an angle over hatching, pasted as an image: read turned, erased in their quad.

A generated engraving-like figure (parallel hatching, a label at 40° across it, an upright label
on paper) is rendered and pasted on a page, so only OCR can see its text. The tilted label must
come into the key, be unreadable afterwards at any angle, and its erasure must stay inside the
label's own slanted box: the hatching in the corners of its axis-aligned hull is kept.
"""

from __future__ import annotations

import io
from functools import cache

import cv2
import numpy as np
import pymupdf
from PIL import Image

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from labeler.erase.residual import readable_in
from labeler.erase.rotated import needs_turned_passes, read_every_angle

DPI = 200
ZOOM = DPI / 72
FIGURE = pymupdf.Rect(0, 0, 360, 300)
TILTED = ("Olecranon", (90.0, 210.0), 40.0, 18.0)  # text, baseline origin, degrees, size
UPRIGHT = ("Radius", (250.0, 60.0), 14.0)


def _figure_png(*, tilted: bool) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=FIGURE.width, height=FIGURE.height)
    for offset in range(-300, 400, 7):  # hatching at -20°, under the tilted label
        page.draw_line((offset, 300), (offset + 110, 0), color=(0.35, 0.35, 0.35), width=0.6)
    page.draw_rect((200, 30, 350, 80), color=None, fill=(1, 1, 1))  # paper under "Radius"
    text, origin, size = UPRIGHT
    page.insert_text(origin, text, fontsize=size, fontname="tiro")
    if tilted:
        text, origin, angle, size = TILTED
        morph = (pymupdf.Point(origin), pymupdf.Matrix(-angle))
        page.insert_text(origin, text, fontsize=size, fontname="tiro", morph=morph)
    return page.get_pixmap(dpi=150).tobytes("png")


def _label_rect() -> pymupdf.Rect:
    """The tilted label's own box before turning (baseline at its origin)."""
    text, (x, y), _, size = TILTED
    width = pymupdf.get_text_length(text, fontname="tiro", fontsize=size)
    return pymupdf.Rect(x - 1, y - 0.8 * size, x + width + 1, y + 0.25 * size)


def _quad_pixels(grow: float) -> np.ndarray:
    """The tilted label's slanted box, grown by ``grow`` points, in question pixels.

    The figure is pasted at its own size, so a figure point is a clip point.
    """
    _, origin, angle, _ = TILTED
    rect = pymupdf.Rect(_label_rect()) + pymupdf.Rect(-grow, -grow, grow, grow)
    turn, at = pymupdf.Matrix(angle), pymupdf.Point(origin)  # morph works in PDF space (y up)
    corners = [((p - at) * turn + at) * ZOOM for p in (rect.tl, rect.tr, rect.br, rect.bl)]
    return np.round([(c.x, c.y) for c in corners]).astype(np.int32)


def _place(png: bytes) -> tuple[pymupdf.Document, tuple]:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 50), "Chapter 8  Joints", fontsize=14)
    target = pymupdf.Rect(80, 90, 80 + FIGURE.width, 90 + FIGURE.height)
    page.insert_image(target, stream=png)
    page.insert_text((54, target.y1 + 16), "Figure 8.3  A joint.", fontsize=9)
    return pymupdf.open("pdf", doc.tobytes()), tuple(target)


def _rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


@cache
def _erased():
    doc, clip = _place(_figure_png(tilted=True))
    return erase_figure(doc, 1, clip, dpi=DPI), clip


def test_the_tilted_label_is_in_the_key():
    result, _ = _erased()
    assert result.method == "ocr"
    assert sorted(label.text for label in result.labels) == ["Olecranon", "Radius"]


def test_no_label_is_readable_at_any_angle():
    result, _ = _erased()
    before = " ".join(b.text for b in read_every_angle(_rgb(result.answer_png))).lower()
    assert readable_in(["Olecranon", "Radius"], before) == ["Olecranon", "Radius"]
    after = " ".join(b.text for b in read_every_angle(_rgb(result.question_png))).lower()
    assert readable_in(["Olecranon", "Radius"], after) == []


def test_hatching_outside_the_tilted_quad_is_kept():
    result, clip = _erased()
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    changed = np.abs(question.astype(int) - answer.astype(int)).max(axis=2) > 0
    quad = np.zeros(changed.shape, np.uint8)
    cv2.fillConvexPoly(quad, _quad_pixels(grow=4.0), 1)
    label = next(lab for lab in result.labels if lab.text == "Olecranon")
    x0, y0, x1, y1 = (round((v - o) * ZOOM) for v, o in zip(label.bbox, clip * 2, strict=False))
    hull = np.zeros(changed.shape, bool)
    hull[y0:y1, x0:x1] = True
    corners = hull & ~quad.astype(bool)
    hatching = corners & (answer.mean(axis=2) < 150)
    assert hatching.sum() > 500  # the hull's corners really hold hatching
    # and it is kept, but for a few pixels where the detector's quad overshoots the word's ends
    # (erasing the hull, as for upright labels, would wipe all of it)
    assert (changed & corners).sum() <= 0.03 * hatching.sum()
    assert changed[quad.astype(bool)].sum() > 500  # while the label's ink was erased


def test_upright_figure_skips_the_turned_passes():
    upright = _rgb(_figure_png(tilted=False))
    assert not needs_turned_passes(read_text(upright, min_confidence=0.5))
    tilted = _rgb(_figure_png(tilted=True))
    assert needs_turned_passes(read_text(tilted, min_confidence=0.5))
