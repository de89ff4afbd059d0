"""What is printed on a page: text spans, images and vector drawings.

Thin typed views over pymupdf's dictionaries, so that harvest and erasure code
reads ``span.size`` instead of digging through nested dicts, and so that every
caller applies the same clip rule (a character belongs to a clip when its
centre lies inside it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymupdf

from labeler.pdf.geometry import Box, Point, center_in, grown, overlaps, rect_box, union

# rawdict without embedded image bytes: images are listed separately and cheaply.
TEXT_FLAGS = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES


@dataclass(frozen=True)
class Char:
    """One glyph: its character, box and baseline origin (points)."""

    c: str
    bbox: Box
    origin: Point


@dataclass(frozen=True)
class TextSpan:
    """A run of glyphs with one font, size and writing direction.

    ``direction`` is the unit baseline vector (1, 0) for ordinary text; rotated
    labels have another one. ``plausible`` is False when the font's boxes are
    degenerate or the text is unreadable, which sends the span to OCR instead.
    """

    text: str
    bbox: Box
    size: float
    direction: Point
    font: str
    color: int
    chars: tuple[Char, ...]

    @property
    def angle(self) -> float:
        """Baseline angle in degrees, counter-clockwise as seen on the page."""
        return math.degrees(math.atan2(-self.direction[1], self.direction[0]))

    @property
    def plausible(self) -> bool:
        x0, y0, x1, y1 = self.bbox
        if not 2.0 <= self.size <= 400.0 or x1 - x0 <= 0.1 or y1 - y0 <= 0.1:
            return False
        text = self.text.strip()
        return bool(text) and text.count("\ufffd") * 2 < len(text)


@dataclass(frozen=True)
class Drawing:
    """One vector path: its box, whether it is filled and/or stroked, and its items."""

    rect: Box
    filled: bool
    stroked: bool
    fill: tuple[float, ...] | None
    color: tuple[float, ...] | None
    width: float
    items: tuple[tuple, ...]
    seqno: int


def text_spans(page: pymupdf.Page, clip: Box | None = None) -> list[TextSpan]:
    """Text spans whose characters' centres lie inside ``clip`` (whole page if None).

    A span crossing the clip edge is cut to its characters inside, so text
    outside the clip is never reported (and so never erased).
    """
    area = tuple(clip) if clip is not None else tuple(page.rect)
    # MuPDF's clip keeps glyphs touching it; the centre rule below decides exactly.
    raw = page.get_text("rawdict", flags=TEXT_FLAGS, clip=grown(area, 2))
    spans: list[TextSpan] = []
    for block in raw["blocks"]:
        for line in block.get("lines", ()):
            direction = tuple(line["dir"])
            for span in line["spans"]:
                chars = tuple(
                    Char(ch["c"], tuple(ch["bbox"]), tuple(ch["origin"]))
                    for ch in span["chars"]
                    if center_in(ch["bbox"], area)
                )
                if not chars or not "".join(ch.c for ch in chars).strip():
                    continue
                spans.append(
                    TextSpan(
                        text="".join(ch.c for ch in chars),
                        bbox=union(ch.bbox for ch in chars),
                        size=float(span["size"]),
                        direction=direction,
                        font=span["font"],
                        color=int(span["color"]),
                        chars=chars,
                    )
                )
    return spans


def image_boxes(page: pymupdf.Page, clip: Box | None = None) -> list[Box]:
    """Boxes (points) where raster images are shown, cut to ``clip``."""
    area = pymupdf.Rect(clip) if clip is not None else page.rect
    boxes: list[Box] = []
    if not page.get_images(full=False):  # cheap resource listing: skip the layout pass
        return boxes
    for info in page.get_image_info():
        box = pymupdf.Rect(info["bbox"]) & area
        if not box.is_empty:
            boxes.append(rect_box(box))
    return boxes


def drawings(page: pymupdf.Page, clip: Box | None = None) -> list[Drawing]:
    """Vector paths whose box meets ``clip`` (whole page if None).

    Uses ``get_cdrawings`` (plain tuples, no Rect/Point objects): several times
    faster than ``get_drawings`` on busy pages.
    """
    area = tuple(clip) if clip is not None else tuple(page.rect)
    found: list[Drawing] = []
    for d in page.get_cdrawings():
        rect = tuple(d["rect"])
        if not overlaps(rect, area):
            continue
        kind = d["type"]
        found.append(
            Drawing(
                rect=rect,
                filled="f" in kind,
                stroked="s" in kind,
                fill=d.get("fill"),
                color=d.get("color"),
                width=float(d.get("width") or 0.0),
                items=tuple(d["items"]),
                seqno=int(d.get("seqno", len(found))),
            )
        )
    return found
