"""Build labelled test figures with pymupdf, and measure erasure on their pixels.

Every figure can be drawn with or without its labels, drawing and leader lines,
so a test can render "leaders only" or "no labels" with exactly the same
geometry and compare pixels: that is how leader survival, leftover label ink
and an unchanged drawing are measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pymupdf

BLACK = (0, 0, 0)
SIZE = 11
CLIP = (20, 20, 580, 420)
DPI = 150


@dataclass(frozen=True)
class Label:
    """A printed label: its lines, first baseline origin, line step and leader line."""

    lines: tuple[str, ...]
    origin: tuple[float, float]
    leader: tuple[tuple[float, float], tuple[float, float]] | None
    step: float = SIZE
    rotate: int = 0

    @property
    def name(self) -> str:
        return " ".join(self.lines).replace("- ", "")


LABELS = (
    Label(("Nucleus",), (60, 120), ((103, 116), (290, 215))),
    # tight multi-line (line step = font size): a word-box redaction would eat the next line
    Label(("Endoplasmic", "reticulum"), (60, 260), ((126, 256), (240, 240))),
    Label(("Mito-", "chondrion"), (60, 330), ((113, 333), (260, 280))),
    Label(
        ("Periosteum", "(membrane covering bone)"), (430, 120), ((427, 116), (360, 170)), step=13
    ),
    # this leader starts inside the word and runs through it
    Label(("Cytoplasm",), (430, 300), ((455, 296), (350, 262))),
    # two separate labels, stacked as tight as one label's lines, each with its own leader
    Label(("Golgi",), (430, 345), ((427, 341), (330, 280))),
    Label(("Lysosome",), (430, 357), ((427, 353), (320, 300))),
    Label(("Axon",), (300, 402), ((296, 372), (296, 312)), rotate=90),
)
MARKER_LABELS = (
    Label(("A",), (60, 120), ((72, 116), (290, 215))),
    Label(("B)",), (60, 260), ((78, 256), (240, 240))),
    Label(("C.",), (430, 300), ((427, 296), (350, 262))),
)
CAPTION = "Figure 3.1 A generic cell."


def draw_art(page: pymupdf.Page) -> None:
    """The drawing the labels point at, with a filled arrowhead-sized triangle."""
    page.draw_circle((300, 220), 90, color=(0.1, 0.2, 0.6), fill=(0.85, 0.9, 1.0), width=1.5)
    page.draw_oval((250, 180, 330, 250), color=(0.3, 0.2, 0.5), fill=(0.6, 0.6, 0.8), width=1)
    page.draw_rect((270, 270, 330, 295), color=None, fill=(1.0, 0.6, 0.2))


def draw_leader(page: pymupdf.Page, leader) -> None:
    start, end = leader
    page.draw_line(start, end, color=BLACK, width=0.8)
    ex, ey = end
    page.draw_polyline(
        [(ex - 3, ey - 3), (ex + 3, ey - 3), (ex, ey + 2)], color=None, fill=BLACK, closePath=True
    )


def draw_label(page: pymupdf.Page, label: Label) -> None:
    x, y = label.origin
    for index, line in enumerate(label.lines):
        page.insert_text((x, y + index * label.step), line, fontsize=SIZE, rotate=label.rotate)


def build(
    labels=LABELS,
    *,
    text: bool = True,
    art: bool = True,
    leaders: bool = True,
    caption: bool = True,
    extra_text: tuple[tuple[tuple[float, float], str], ...] = (),
) -> pymupdf.Document:
    """A one-page PDF (600 × 500 pt) with the chosen layers of the test figure."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=500)
    if art:
        draw_art(page)
    for label in labels:
        if leaders and label.leader:
            draw_leader(page, label.leader)
        if text:
            draw_label(page, label)
    if text:
        for origin, words in extra_text:
            page.insert_text(origin, words, fontsize=SIZE)
        if caption:
            page.insert_text((40, 460), CAPTION, fontsize=SIZE)
    return pymupdf.open("pdf", doc.tobytes())


def as_outlines(doc: pymupdf.Document) -> pymupdf.Document:
    """The same page with every glyph converted to a filled path (no extractable text)."""
    svg = doc[0].get_svg_image(text_as_path=True)
    return pymupdf.open("pdf", pymupdf.open(stream=svg.encode(), filetype="svg").convert_to_pdf())


def as_pasted_image(doc: pymupdf.Document, dpi: int = 200) -> pymupdf.Document:
    """The same page as one pasted raster image (a scan, or a figure pasted into a book)."""
    png = doc[0].get_pixmap(dpi=dpi, alpha=False).tobytes("png")
    out = pymupdf.open()
    page = out.new_page(width=doc[0].rect.width, height=doc[0].rect.height)
    page.insert_image(page.rect, stream=png)
    return pymupdf.open("pdf", out.tobytes())


def render(doc: pymupdf.Document, clip=CLIP, dpi: int = DPI) -> np.ndarray:
    pix = doc[0].get_pixmap(dpi=dpi, clip=clip, alpha=False)
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)


def decode(png: bytes) -> np.ndarray:
    pix = pymupdf.Pixmap(png)
    return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]


def ink(rgb: np.ndarray, level: int = 200) -> np.ndarray:
    """Mask of pixels clearly darker than white (any channel below ``level``)."""
    return rgb.min(axis=2) < level


def grow(mask: np.ndarray, pixels: int) -> np.ndarray:
    import cv2

    kernel = np.ones((2 * pixels + 1, 2 * pixels + 1), np.uint8)
    return cv2.dilate(mask.astype(np.uint8), kernel).astype(bool)


def outside_boxes(shape, boxes, clip=CLIP, dpi: int = DPI, margin: float = 2.0) -> np.ndarray:
    """Mask of pixels farther than ``margin`` points from every box (page points)."""
    mask = np.ones(shape[:2], bool)
    zoom = dpi / 72
    for x0, y0, x1, y1 in boxes:
        c0 = max(int((x0 - margin - clip[0]) * zoom), 0)
        r0 = max(int((y0 - margin - clip[1]) * zoom), 0)
        c1 = int(np.ceil((x1 + margin - clip[0]) * zoom))
        r1 = int(np.ceil((y1 + margin - clip[1]) * zoom))
        mask[r0:r1, c0:c1] = False
    return mask


def leader_survival(question: np.ndarray, leaders_only: np.ndarray) -> float:
    """Share of leader-line pixels (dark in the leaders-only render) still dark in the question."""
    line = ink(leaders_only, 128)
    return float((ink(question, 200) & line).sum() / line.sum())


def leftover_label_ink(question: np.ndarray, labels_only: np.ndarray, no_labels: np.ndarray) -> int:
    """Pixels where only a label printed ink and the question still shows ink."""
    label = ink(labels_only, 160) & ~grow(ink(no_labels, 250), 1)
    return int((ink(question, 200) & label).sum())
