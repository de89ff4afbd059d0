"""A raster figure with burned-in labels, drawn with pymupdf, plus its ground truth.

The figure is rendered three times from the same drawing commands: complete (what
the user has), without the label text (what a perfect erasure gives) and with only
the leader / crossing lines (which pixels must survive). Coordinates are PDF points
on a 420×280 page rendered at 144 dpi, so 1 pt = 2 px.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pymupdf
import pytest

SCALE = 2  # px per pt at 144 dpi
FONT_SIZE = 12
PAD = 2.0  # pt of padding around a label's glyph box, like an OCR box

# text, baseline origin (pt)
LABELS = [
    ("Nucleus", (20, 62)),
    ("Membrane", (20, 202)),
    ("Vacuole", (336, 62)),
    ("Ribosome", (330, 222)),
    ("Cytoplasm", (160, 181)),  # on the coloured fill, no leader
]

# Leader lines: label index, start (pt, at or just inside the padded box), end on the drawing.
LEADERS = [
    (0, (68.0, 58.0), (190.0, 136.0)),
    (2, (333.0, 58.0), (258.0, 112.0)),
    (3, (329.0, 218.0), (262.0, 176.0)),
]
# Lines that pass straight through label boxes (and must survive inside them).
CROSSING = [
    ((8.0, 198.0), (150.0, 198.0)),  # through "Membrane", ends on the ellipse
    ((356.0, 30.0), (356.0, 96.0)),  # vertical, through "Vacuole"
    ((6.0, 44.0), (90.0, 70.0)),  # diagonal, through "Nucleus"
    ((186.0, 150.0), (186.0, 196.0)),  # through "Cytoplasm", on the coloured fill
]
LINE_WIDTH = 0.75


@dataclass(frozen=True)
class Figure:
    rgb: np.ndarray  # the figure as the user has it
    no_text: np.ndarray  # the same without label text: the ideal erasure
    lines: np.ndarray  # bool mask of leader and crossing line pixels
    boxes: list[tuple[int, int, int, int]]  # padded label boxes, px
    texts: list[str]
    anchors: list[tuple[float, float] | None]  # leader far ends, px


def _label_box(text: str, origin: tuple[float, float]) -> pymupdf.Rect:
    font = pymupdf.Font("helv")
    x, y = origin
    width = font.text_length(text, fontsize=FONT_SIZE)
    top = y - font.ascender * FONT_SIZE
    bottom = y - font.descender * FONT_SIZE
    return pymupdf.Rect(x - PAD, top - PAD, x + width + PAD, bottom + PAD)


def _render(*, drawing: bool, text: bool, lines: bool) -> np.ndarray:
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=280)
    if drawing:
        shape = page.new_shape()
        shape.draw_oval(pymupdf.Rect(130, 80, 290, 200))
        shape.finish(color=(0.45, 0.3, 0.1), fill=(1, 0.9, 0.6), width=1.2)
        shape.draw_circle((200, 140), 26)
        shape.finish(color=(0.3, 0.2, 0.5), fill=(0.75, 0.65, 0.9), width=1.2)
        shape.commit()
    if lines:
        shape = page.new_shape()
        for _, start, end in LEADERS:
            shape.draw_line(start, end)
        for start, end in CROSSING:
            shape.draw_line(start, end)
        shape.finish(color=(0, 0, 0), width=LINE_WIDTH)
        shape.commit()
    if text:
        for label, origin in LABELS:
            page.insert_text(origin, label, fontsize=FONT_SIZE, fontname="helv", color=(0, 0, 0))
    pix = page.get_pixmap(dpi=72 * SCALE, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()


def build_figure() -> Figure:
    """The synthetic figure and its ground truth (see the module docstring)."""
    boxes = []
    for label, origin in LABELS:
        r = _label_box(label, origin) * SCALE
        boxes.append((int(r.x0), int(r.y0), int(np.ceil(r.x1)), int(np.ceil(r.y1))))
    anchors: list[tuple[float, float] | None] = [None] * len(LABELS)
    for index, _, end in LEADERS:
        anchors[index] = (end[0] * SCALE, end[1] * SCALE)
    line_gray = _render(drawing=False, text=False, lines=True).mean(axis=2)
    return Figure(
        rgb=_render(drawing=True, text=True, lines=True),
        no_text=_render(drawing=True, text=False, lines=True),
        lines=line_gray < 160,
        boxes=boxes,
        texts=[label for label, _ in LABELS],
        anchors=anchors,
    )


@pytest.fixture(scope="session")
def figure() -> Figure:
    return build_figure()
