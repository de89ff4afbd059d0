"""A raster figure with collinear leaders and side-by-side labels, and its ground truth.

Drawn with pymupdf, rendered to a PNG (labels burned into pixels) and pasted on a PDF page,
so ``erase_figure`` takes the raster path. The same drawing is rendered without its label
text (the ideal erasure) and with only the leader lines (the pixels that must survive).
Coordinates are PDF points; the PNG is rendered at ``SCALE`` px per point.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pymupdf
from PIL import Image

SCALE = 3
WIDTH, HEIGHT = 460.0, 300.0
SIZE = 10.0
BLACK = (0, 0, 0)


@dataclass(frozen=True)
class Label:
    text: str
    origin: tuple[float, float]  # baseline start
    leaders: tuple[tuple[tuple[float, float], tuple[float, float]], ...]


def _width(text: str) -> float:
    return pymupdf.get_text_length(text, fontname="helv", fontsize=SIZE)


def _collinear(text: str, x: float, y: float, left: float, right: float) -> Label:
    """A label at baseline (x, y) with leaders leaving both ends at mid x-height."""
    mid = y - 0.3 * SIZE
    end = x + _width(text)
    return Label(text, (x, y), (((x - 3, mid), (left, mid)), ((end + 3, mid), (right, mid))))


LABELS = (
    _collinear("Basement membrane", 180, 60, 60, 400),
    # a column of labels as tight as one label's lines: each keeps its own two leaders
    _collinear("Epidermis", 190, 120, 60, 400),
    _collinear("Dermis", 199, 132, 60, 400),
    _collinear("Hypodermis", 188, 144, 60, 400),
    # side by side on one line, each with its own leader
    Label("Artery", (150, 250), (((165, 241), (110, 205)),)),
    Label("Vein", (200, 250), (((210, 241), (260, 205)),)),
)
NAMES = sorted(label.text for label in LABELS)


def _draw(page: pymupdf.Page, *, art: bool, text: bool, lines: bool) -> None:
    if art:
        shape = page.new_shape()
        shape.draw_rect(pymupdf.Rect(20, 30, 60, 170))
        shape.finish(color=(0.2, 0.3, 0.5), fill=(0.6, 0.75, 0.95), width=1)
        shape.draw_rect(pymupdf.Rect(400, 30, 440, 170))
        shape.finish(color=(0.5, 0.3, 0.2), fill=(0.95, 0.8, 0.6), width=1)
        shape.draw_oval(pymupdf.Rect(60, 190, 300, 215))
        shape.finish(color=(0.6, 0.1, 0.1), fill=(0.95, 0.6, 0.6), width=1)
        shape.commit()
    if lines:
        shape = page.new_shape()
        for label in LABELS:
            for start, end in label.leaders:
                shape.draw_line(start, end)
        shape.finish(color=BLACK, width=0.8)
        shape.commit()
    if text:
        for label in LABELS:
            page.insert_text(label.origin, label.text, fontsize=SIZE, fontname="helv")


def render(*, art: bool = True, text: bool = True, lines: bool = True) -> np.ndarray:
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    _draw(page, art=art, text=text, lines=lines)
    pix = page.get_pixmap(dpi=72 * SCALE, alpha=False)
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).copy()


def text_boxes() -> list[pymupdf.Rect]:
    """Each label's glyph box (points), from the vector version of the same figure."""
    doc = pymupdf.open()
    page = doc.new_page(width=WIDTH, height=HEIGHT)
    _draw(page, art=False, text=True, lines=False)
    blocks = page.get_text("dict")["blocks"]
    return [pymupdf.Rect(line["bbox"]) for block in blocks for line in block["lines"]]


def pasted(rgb: np.ndarray, scale: int = SCALE) -> pymupdf.Document:
    """A page holding only ``rgb`` pasted as an image at 1 px = 1/``scale`` pt."""
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="PNG")
    doc = pymupdf.open()
    page = doc.new_page(width=rgb.shape[1] / scale, height=rgb.shape[0] / scale)
    page.insert_image(page.rect, stream=buffer.getvalue())
    return pymupdf.open("pdf", doc.tobytes())
