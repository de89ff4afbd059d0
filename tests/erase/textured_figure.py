"""A raster figure whose labels sit on a textured fill and on a flat coloured fill.

Drawn with pymupdf (a seeded random texture of darker blobs, like spongy bone or a cell's
cytoplasm in a textbook figure), rendered to pixels and pasted on a page, so erasure takes
the raster path. The same drawing without its labels is the ideal erasure.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pymupdf

from tests.erase.raster_leaders_figure import pasted

SCALE = 3
WIDTH, HEIGHT = 400.0, 270.0
SIZE = 11.0
TEXTURE = pymupdf.Rect(40, 50, 360, 200)
FLAT = pymupdf.Rect(40, 212, 360, 258)


@dataclass(frozen=True)
class Label:
    text: str
    origin: tuple[float, float]
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None


LABELS = (
    Label("Spongy bone", (70, 95)),
    Label("Red marrow", (210, 165)),
    Label("Periosteum", (150, 240)),
    # on white paper, its leader runs down to the textured part's outline and stops there
    Label("Compact bone", (250, 24), ((282, 28), (282, 50))),
)
NAMES = sorted(label.text for label in LABELS)


def _draw(page: pymupdf.Page, *, text: bool) -> None:
    shape = page.new_shape()
    shape.draw_rect(TEXTURE)
    shape.finish(color=(0.45, 0.25, 0.1), fill=(0.96, 0.82, 0.62), width=1.5)
    shape.draw_rect(FLAT)
    shape.finish(color=None, fill=(0.72, 0.84, 0.96))
    shape.commit()
    rng = random.Random(11)
    shape = page.new_shape()
    for _ in range(900):
        x = rng.uniform(TEXTURE.x0 + 3, TEXTURE.x1 - 3)
        y = rng.uniform(TEXTURE.y0 + 3, TEXTURE.y1 - 3)
        shape.draw_circle((x, y), rng.uniform(0.8, 2.2))
    shape.finish(color=None, fill=(0.86, 0.58, 0.38))
    shape.commit()
    shape = page.new_shape()
    for label in LABELS:
        if label.leader:
            shape.draw_line(*label.leader)
    shape.finish(color=(0, 0, 0), width=0.8)
    shape.commit()
    if text:
        for label in LABELS:
            page.insert_text(label.origin, label.text, fontsize=SIZE, fontname="helv")


def render(*, text: bool = True) -> np.ndarray:
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    _draw(page, text=text)
    pix = page.get_pixmap(dpi=72 * SCALE, alpha=False)
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()


def glyph_mask() -> np.ndarray:
    """The labels' own ink (pixels), from a render of the text alone."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    for label in LABELS:
        page.insert_text(label.origin, label.text, fontsize=SIZE, fontname="helv")
    pix = page.get_pixmap(dpi=72 * SCALE, alpha=False)
    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).mean(axis=2)
    return gray < 200


def document() -> pymupdf.Document:
    return pasted(render())
