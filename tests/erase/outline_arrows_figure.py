"""An outline-label figure whose arrows and small molecules touch the lettering.

Pathway and membrane figures draw curved leader arrows with filled arrowheads that run right
up to a label's glyphs, filled block arrows beside a word and ball-and-stick molecules next to
a label; all of them are small dark fills like glyphs. Built with pymupdf, then every glyph is
converted to a filled path (``as_outlines``), so the page has no extractable text.
"""

from __future__ import annotations

import itertools
import math

import pymupdf

from tests.erase.erase_fixtures import as_outlines

SIZE = 12.0
BLACK = (0, 0, 0)
CLIP = (20, 20, 580, 380)

# text, baseline origin
LABELS = (
    ("Glucose", (60, 80)),
    ("Pyruvate", (330, 80)),
    ("Cholesterol", (60, 200)),
    ("Water", (360, 200)),
    ("Smooth muscle", (60, 320)),
    ("Mitochondrion", (360, 320)),
)
NAMES = sorted(text for text, _ in LABELS)


def _width(text: str) -> float:
    return pymupdf.get_text_length(text, fontname="helv", fontsize=SIZE)


def _head(page: pymupdf.Page, tip: tuple[float, float], angle: float) -> pymupdf.Rect:
    """A filled triangular arrowhead with its tip at ``tip``, pointing along ``angle``."""
    ux, uy = math.cos(angle), math.sin(angle)
    bx, by = tip[0] - 7 * ux, tip[1] - 7 * uy
    points = [tip, (bx - 3.5 * uy, by + 3.5 * ux), (bx + 3.5 * uy, by - 3.5 * ux)]
    page.draw_polyline(points, color=None, fill=BLACK, closePath=True)
    return pymupdf.Rect(pymupdf.Quad(points[0], points[1], points[2], points[2]).rect)


def draw(page: pymupdf.Page, *, text: bool = True, art: bool = True) -> list[pymupdf.Rect]:
    """Draw the figure; returns the boxes of the arrows and molecules (what must survive)."""
    kept: list[pymupdf.Rect] = []
    if art:
        # a curved arrow from the end of "Glucose" over to "Pyruvate", its head at the "P"
        start = (60 + _width("Glucose") + 0.5, 76)
        tip = (329.0, 76)
        page.draw_bezier(start, (150, 30), (240, 30), (tip[0] - 8, tip[1] - 2), color=BLACK)
        kept.append(_head(page, tip, math.atan2(2, 8)))
        # a molecule beside "Cholesterol": filled atoms joined by bonds, 2 pt from the "l"
        x = 60 + _width("Cholesterol") + 3
        atoms = [(x + 3, 196), (x + 13, 190), (x + 23, 196), (x + 33, 190), (x + 23, 206)]
        for a, b in itertools.pairwise(atoms):
            page.draw_line(a, b, color=BLACK, width=1)
        for atom in atoms:
            page.draw_circle(atom, 2.6, color=None, fill=BLACK)
            kept.append(pymupdf.Rect(atom[0] - 2.6, atom[1] - 2.6, atom[0] + 2.6, atom[1] + 2.6))
        # a filled block arrow right after "Water", pointing at the membrane
        x = 360 + _width("Water") + 1
        block = [(x, 193), (x + 14, 193), (x + 14, 189), (x + 24, 196), (x + 14, 203),
                 (x + 14, 199), (x, 199)]  # fmt: skip
        page.draw_polyline(block, color=None, fill=BLACK, closePath=True)
        kept.append(pymupdf.Rect(x, 189, x + 24, 203))
        # a curved leader with a filled head, from under "Mitochondrion" down to the drawing
        start = (380, 324)
        tip = (430, 368)
        page.draw_bezier(start, (382, 350), (400, 362), (tip[0] - 7, tip[1]), color=BLACK)
        kept.append(_head(page, tip, 0.0))
        page.draw_oval((440, 350, 560, 378), color=(0.2, 0.3, 0.6), fill=(0.8, 0.85, 1.0))
        # a leader arrow for "Smooth muscle" whose head is glyph-sized and touches the "S"
        tip = (59.0, 312)
        page.draw_line((30, 345), (55, 316), color=BLACK, width=0.8)
        kept.append(_head(page, tip, math.atan2(-4, 4)))
    if text:
        for words, origin in LABELS:
            page.insert_text(origin, words, fontsize=SIZE, fontname="helv")
    return kept


def document(*, text: bool = True, art: bool = True) -> pymupdf.Document:
    doc = pymupdf.open()
    draw(doc.new_page(width=600, height=400), text=text, art=art)
    return as_outlines(pymupdf.open("pdf", doc.tobytes()))


def kept_boxes() -> list[pymupdf.Rect]:
    doc = pymupdf.open()
    return draw(doc.new_page(width=600, height=400), text=False)
