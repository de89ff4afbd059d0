"""Generate the sample textbook PDF: one labelled figure per page.

Vector figures are drawn with real text labels and stroked leader lines, as a
born-digital textbook would be (pattern B); one figure carries letter markers
(pattern C); one is pasted as a raster image with its labels burned in, as a
scanned plate would be. Each page also has body text above and a caption below
the figure, outside its clip, as in a real book. The generator returns where
it put each figure so the demo and the benches know the clips and the keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from labeler.pdf.geometry import as_box, rect_box
from labeler.samples.figures import FIGURES, FigureSpec, Label

PAGE_W, PAGE_H = 595, 842
ORIGIN = (150.0, 190.0)  # top-left of the 300 x 260 pt drawing box
BOX_W, BOX_H = 300.0, 260.0
FONT, FONT_SIZE, LINE_H = "helv", 9.0, 11.0
BODY = (
    "Figures in this chapter show structures at the level of organs, cells and tissues. "
    "Each part named in the text is labelled on the figure; leader lines connect every "
    "label to the structure it names. Study each figure before reading the next section."
)


@dataclass(frozen=True)
class PlacedFigure:
    """Where a figure landed in the book: 1-based page and clip in PDF points."""

    page: int
    clip: tuple[float, float, float, float]
    spec: FigureSpec


def layout(figures: Sequence[FigureSpec] = FIGURES, repeat: int = 1) -> list[PlacedFigure]:
    """Where each figure goes: one per page, in order (no drawing; cheap)."""
    return [
        PlacedFigure(n, as_box(round(v, 2) for v in rect_box(_figure_clip(spec))), spec)
        for n, spec in enumerate(list(figures) * repeat, start=1)
    ]


def write_sample_book(
    path: str | Path, figures: Sequence[FigureSpec] = FIGURES, repeat: int = 1
) -> list[PlacedFigure]:
    """Write the book to ``path`` and return its figures' placements."""
    doc = pymupdf.open()
    placed = layout(figures, repeat)
    for fig in placed:
        spec, clip = fig.spec, pymupdf.Rect(fig.clip)
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        chapter = f"Chapter {1 + (fig.page - 1) // 8}: Structure and function"
        page.insert_text((60, 80), chapter, fontname="hebo", fontsize=14)
        page.insert_textbox(
            pymupdf.Rect(60, 95, PAGE_W - 60, 170), BODY, fontname=FONT, fontsize=10
        )
        if spec.raster:
            page.insert_image(clip, stream=_raster_png(spec, clip))
        else:
            _draw_figure(page, spec)
        page.insert_text(
            (clip.x0, clip.y1 + 18),
            f"Figure {fig.page}. {spec.title}.",
            fontname="heit",
            fontsize=9,
        )
        page.insert_textbox(
            pymupdf.Rect(60, clip.y1 + 40, PAGE_W - 60, PAGE_H - 60),
            BODY,
            fontname=FONT,
            fontsize=10,
        )
    doc.save(path, garbage=3, deflate=True)
    doc.close()
    return placed


def _to_page(point: tuple[float, float]) -> pymupdf.Point:
    return pymupdf.Point(ORIGIN[0] + point[0], ORIGIN[1] + point[1])


def _label_rects(label: Label) -> list[pymupdf.Rect]:
    """One rect per text line, right-aligned left of the box or left-aligned right of it."""
    rects = []
    top = ORIGIN[1] + label.y - FONT_SIZE / 2
    for i, line in enumerate(label.lines):
        width = pymupdf.get_text_length(line, fontname=FONT, fontsize=FONT_SIZE)
        y0 = top + i * LINE_H
        if label.side == "left":
            x1 = ORIGIN[0] - 10
            rects.append(pymupdf.Rect(x1 - width, y0, x1, y0 + LINE_H))
        else:
            x0 = ORIGIN[0] + BOX_W + 10
            rects.append(pymupdf.Rect(x0, y0, x0 + width, y0 + LINE_H))
    return rects


def _figure_clip(spec: FigureSpec) -> pymupdf.Rect:
    clip = pymupdf.Rect(ORIGIN[0], ORIGIN[1], ORIGIN[0] + BOX_W, ORIGIN[1] + BOX_H)
    for label in spec.labels:
        if label.side != "marker":
            for rect in _label_rects(label):
                clip |= rect
    return pymupdf.Rect(clip.x0 - 8, clip.y0 - 8, clip.x1 + 8, clip.y1 + 8)


def _draw_figure(page: pymupdf.Page, spec: FigureSpec) -> None:
    """Shapes first, then leader lines, then label text on top (as illustrators layer them)."""
    for kind, geometry, fill in spec.shapes:
        shape = page.new_shape()
        if kind == "line":
            shape.draw_line(_to_page(geometry[0]), _to_page(geometry[1]))
            shape.finish(color=(0.2, 0.2, 0.2), width=2)
        else:
            x0, y0, x1, y1 = geometry
            rect = pymupdf.Rect(_to_page((x0, y0)), _to_page((x1, y1)))
            if kind == "oval":
                shape.draw_oval(rect)
            else:
                shape.draw_rect(rect)
            shape.finish(color=(0.25, 0.25, 0.25), fill=fill, width=0.8)
        shape.commit()
    for label in spec.labels:
        if label.side == "marker":
            at = _to_page(label.target)
            page.insert_text((at.x - 3.5, at.y + 4), label.lines[0], fontname="hebo", fontsize=11)
            continue
        rects = _label_rects(label)
        first = rects[0]
        start = (
            pymupdf.Point(first.x1 + 3, (first.y0 + first.y1) / 2)
            if label.side == "left"
            else pymupdf.Point(first.x0 - 3, (first.y0 + first.y1) / 2)
        )
        page.draw_line(start, _to_page(label.target), color=(0, 0, 0), width=0.7)
        page.draw_circle(_to_page(label.target), 1.2, color=(0, 0, 0), fill=(0, 0, 0))
        for rect, line in zip(rects, label.lines, strict=True):
            page.insert_text((rect.x0, rect.y1 - 2.5), line, fontname=FONT, fontsize=FONT_SIZE)


def _raster_png(spec: FigureSpec, clip: pymupdf.Rect) -> bytes:
    """Draw the figure on a scratch page and flatten it to a PNG (labels burned in)."""
    scratch = pymupdf.open()
    page = scratch.new_page(width=PAGE_W, height=PAGE_H)
    _draw_figure(page, spec)
    png = page.get_pixmap(clip=clip, dpi=150, alpha=False).tobytes("png")
    scratch.close()
    return png
