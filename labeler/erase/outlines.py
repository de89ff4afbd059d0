"""Labels printed as vector outlines (text converted to curves).

Such labels have no extractable text: each glyph is a small, dark, fill-only
path. We cluster those paths into lines (they share a baseline band and nearly
touch), read each line by OCR of the original render, and remove them with
``PDF_REDACT_LINE_ART_REMOVE_IF_COVERED`` over each glyph's own box: a path is
deleted only when a rect covers it completely, so the stroked leader lines that
run up to the label survive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pymupdf

from labeler.harvest.fragments import Fragment
from labeler.pdf.content import Box, Drawing

MIN_GLYPH = 2.0  # points: smaller fills are dots and specks
MAX_GLYPH = 60.0  # points: larger fills are drawing, not lettering
MAX_LUMINANCE = 0.5  # lettering is dark
CAP_RATIO = 0.72  # glyph cluster height ≈ 0.72 × font size (caps and ascenders)


def _dark(fill: Sequence[float] | None) -> bool:
    if not fill:
        return False
    if len(fill) == 1:
        return fill[0] <= MAX_LUMINANCE
    if len(fill) == 4:  # CMYK
        c, m, y, k = fill
        fill = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    r, g, b = fill[:3]
    return 0.299 * r + 0.587 * g + 0.114 * b <= MAX_LUMINANCE


def is_glyph(drawing: Drawing) -> bool:
    """A small dark fill-only path made of curves or lines (not a plain rectangle)."""
    if not drawing.filled or drawing.stroked or not _dark(drawing.fill):
        return False
    x0, y0, x1, y1 = drawing.rect
    width, height = x1 - x0, y1 - y0
    if not (MIN_GLYPH <= height <= MAX_GLYPH and 0.3 <= width <= MAX_GLYPH):
        return False
    return not (len(drawing.items) == 1 and drawing.items[0][0] == "re")


def _joins(line: list[Box], glyph: Box) -> bool:
    top = min(b[1] for b in line)
    bottom = max(b[3] for b in line)
    height = max(bottom - top, glyph[3] - glyph[1])
    overlap = min(bottom, glyph[3]) - max(top, glyph[1])
    if overlap < 0.5 * min(bottom - top, glyph[3] - glyph[1]):
        return False
    right = max(b[2] for b in line)
    return -0.2 * height <= glyph[0] - right <= 0.6 * height


def glyph_lines(drawings: Iterable[Drawing], clip: Box) -> list[Fragment]:
    """Cluster glyph paths inside ``clip`` into line fragments (text still unread)."""
    glyphs = [
        d.rect
        for d in drawings
        if is_glyph(d)
        and clip[0] <= (d.rect[0] + d.rect[2]) / 2 <= clip[2]
        and clip[1] <= (d.rect[1] + d.rect[3]) / 2 <= clip[3]
    ]
    lines: list[list[Box]] = []
    for glyph in sorted(glyphs, key=lambda b: b[0]):
        for line in lines:
            if _joins(line, glyph):
                line.append(glyph)
                break
        else:
            lines.append([glyph])
    fragments = []
    for line in lines:
        box = (
            min(b[0] for b in line),
            min(b[1] for b in line),
            max(b[2] for b in line),
            max(b[3] for b in line),
        )
        size = (box[3] - box[1]) / CAP_RATIO if len(line) > 1 else (box[3] - box[1])
        fragments.append(Fragment(text="", bbox=box, size=size, kind="outline", parts=line))
    return fragments


def erase_outlines(page: pymupdf.Page, glyph_boxes: Iterable[Box]) -> int:
    """Delete the glyph paths fully covered by their (slightly grown) boxes; returns the count."""
    count = 0
    for box in glyph_boxes:
        page.add_redact_annot(pymupdf.Rect(box) + (-0.3, -0.3, 0.3, 0.3), fill=False, cross_out=False)
        count += 1
    if count:
        page.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
            text=pymupdf.PDF_REDACT_TEXT_NONE,
        )
    return count
