"""Redrawing regions of an erased page into a copy of the original render."""

from __future__ import annotations

import numpy as np
import pymupdf

from labeler.erase.rerender import redraw

DPI = 150
ZOOM = DPI / 72
CLIP = pymupdf.Rect(40, 40, 400, 300)


def page_with_label() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page(width=450, height=350)
    page.draw_circle((220, 170), 90, color=(0.1, 0.2, 0.6), fill=(0.85, 0.9, 1.0), width=1.5)
    page.draw_line((60, 100), (300, 100), color=(0, 0, 0), width=0.8)  # crosses the label
    page.insert_text((80, 104), "Nucleus", fontsize=14)
    page.insert_text((80, 260), "Cytoplasm", fontsize=14)
    return pymupdf.open("pdf", doc.tobytes())


def pixels(pix: pymupdf.Pixmap) -> np.ndarray:
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n).copy()


def test_redrawn_box_is_the_erased_page_and_the_rest_is_the_base():
    doc = page_with_label()
    base = doc[0].get_pixmap(dpi=DPI, clip=CLIP, alpha=False)
    erased = page_with_label()
    page = erased[0]
    word = page.search_for("Nucleus")[0]
    page.add_redact_annot(word, fill=False, cross_out=False)
    page.apply_redactions(graphics=pymupdf.PDF_REDACT_LINE_ART_NONE)
    full = pixels(page.get_pixmap(dpi=DPI, clip=CLIP, alpha=False))
    x0, y0 = int(word.x0 * ZOOM) - base.x - 4, int(word.y0 * ZOOM) - base.y - 4
    x1, y1 = int(word.x1 * ZOOM) - base.x + 4, int(word.y1 * ZOOM) - base.y + 4
    out = redraw(page.get_displaylist(), base, ZOOM, [(x0, y0, x1, y1)])
    got, before = pixels(out), pixels(base)
    assert (out.width, out.height, out.n, out.x, out.y) == (
        base.width,
        base.height,
        3,
        base.x,
        base.y,
    )
    inside = np.zeros(got.shape[:2], bool)
    inside[y0:y1, x0:x1] = True
    assert np.array_equal(got[~inside], before[~inside])  # "Cytoplasm" and the rest untouched
    assert not np.array_equal(before[inside], full[inside])  # the word really was there
    assert np.abs(got[inside].astype(int) - full[inside]).max() <= 16  # edge anti-aliasing only
    # the leader line crossing the word is still drawn
    row = int(100 * ZOOM) - base.y
    assert got[row - 1 : row + 2, x0:x1].min() < 100
    assert np.array_equal(pixels(base), before)  # the base render itself is not changed


def test_whole_clip_redraw_equals_a_full_render():
    doc = page_with_label()
    page = doc[0]
    base = page.get_pixmap(dpi=DPI, clip=CLIP, alpha=False)
    blank = pymupdf.open()
    blank.new_page(width=450, height=350)
    out = redraw(page.get_displaylist(), blank[0].get_pixmap(dpi=DPI, clip=CLIP, alpha=False),
                 ZOOM, [(0, 0, base.width, base.height)])  # fmt: skip
    assert np.array_equal(pixels(out), pixels(base))
