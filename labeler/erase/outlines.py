"""Labels printed as vector outlines (text converted to curves).

Such labels have no extractable text: each glyph is a small, dark, fill-only
path. We cluster those paths into lines (they share a baseline band and nearly
touch), read each line by OCR of the original render, and remove them with
``PDF_REDACT_LINE_ART_REMOVE_IF_COVERED`` over each line's box: a path is
deleted only when a rect covers it completely, so the stroked leader lines that
run up to the label survive.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pymupdf

from labeler.erase import redact
from labeler.harvest.fragments import Fragment
from labeler.pdf.content import Drawing
from labeler.pdf.geometry import Box, center_in, grown, overlaps, union

MIN_GLYPH = 2.0  # points: smaller fills are dots and specks
MAX_GLYPH = 60.0  # points: larger fills are drawing, not lettering
MAX_LUMINANCE = 0.5  # lettering is dark
CAP_RATIO = 0.72  # glyph cluster height ≈ 0.72 × font size (caps and ascenders)
DISC_HEIGHT = 0.45  # × line height: a solid disc this tall at a line's end is an atom or a bullet
OVERSHOOT = 0.15  # × line height: a fill sticking out this far above *and* below is no letter


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


def _ink(drawing: Drawing) -> bool:
    return drawing.filled and not drawing.stroked and _dark(drawing.fill)


def is_glyph(drawing: Drawing) -> bool:
    """A small dark fill-only path made of curves or lines (not a plain rectangle)."""
    if not _ink(drawing):
        return False
    x0, y0, x1, y1 = drawing.rect
    width, height = x1 - x0, y1 - y0
    if not (MIN_GLYPH <= height <= MAX_GLYPH and 0.3 <= width <= MAX_GLYPH):
        return False
    return not (len(drawing.items) == 1 and drawing.items[0][0] == "re")


def _speck(drawing: Drawing) -> bool:
    """Too small to be a glyph on its own, but a hyphen or a dot inside a word."""
    x0, y0, x1, y1 = drawing.rect
    return _ink(drawing) and y1 - y0 < MIN_GLYPH and x1 - x0 < MAX_GLYPH


def _joins(line: list[Drawing], glyph: Box) -> bool:
    top = min(d.rect[1] for d in line)
    bottom = max(d.rect[3] for d in line)
    height = max(bottom - top, glyph[3] - glyph[1])
    overlap = min(bottom, glyph[3]) - max(top, glyph[1])
    if overlap < 0.5 * min(bottom - top, glyph[3] - glyph[1]):
        return False
    # Sorted by x0, so only the gap to the line's right edge matters (kerning may overlap).
    return glyph[0] - max(d.rect[2] for d in line) <= 0.6 * height


def _triangle(glyph: Drawing) -> bool:
    """Three straight edges: an arrowhead (no letter's outline is a bare triangle)."""
    kinds = [item[0] for item in glyph.items]
    return len(kinds) <= 3 and all(kind == "l" for kind in kinds)


def _disc(glyph: Drawing) -> bool:
    """A single solid round fill: an atom or a bullet (an "o" has a counter)."""
    kinds = [item[0] for item in glyph.items]
    x0, y0, x1, y1 = glyph.rect
    round_ = 0.8 <= (x1 - x0) / max(y1 - y0, 1e-6) <= 1.25
    return len(kinds) <= 4 and all(kind == "c" for kind in kinds) and round_


def letter_like(glyph: Drawing, others: Sequence[Drawing]) -> bool:
    """Is ``glyph``, at one end of a line of ``others``, shaped like a letter?

    Arrowheads, block arrows and the atoms of a molecule drawing are small dark fills too,
    and they often touch a label. Beside letters, a triangle, a solid disc as tall as the
    letters (a full stop is much smaller) and a fill overshooting the line's letters both
    above and below (a block arrow) are drawing.
    """
    top = min(d.rect[1] for d in others)
    bottom = max(d.rect[3] for d in others)
    band = bottom - top
    y0, y1 = glyph.rect[1], glyph.rect[3]
    if _triangle(glyph) or (_disc(glyph) and y1 - y0 >= DISC_HEIGHT * band):
        return False
    return not (top - y0 > OVERSHOOT * band and y1 - bottom > OVERSHOOT * band)


def _trimmed(line: list[Drawing]) -> list[Drawing]:
    """The line without the arrows and molecule atoms stuck to either end of it."""
    while len(line) > 1 and not letter_like(line[-1], line[:-1]):
        line = line[:-1]
    while len(line) > 1 and not letter_like(line[0], line[1:]):
        line = line[1:]
    return line


def glyph_lines(drawings: Iterable[Drawing], clip: Box) -> list[Fragment]:
    """Cluster glyph paths inside ``clip`` into line fragments (text still unread)."""
    inside = [d for d in drawings if center_in(d.rect, clip)]
    glyphs = [d for d in inside if is_glyph(d)]
    clusters: list[list[Drawing]] = []
    for glyph in sorted(glyphs, key=lambda d: d.rect[0]):
        for cluster in clusters:
            if _joins(cluster, glyph.rect):
                cluster.append(glyph)
                break
        else:
            clusters.append([glyph])
    trimmed = [_trimmed(cluster) for cluster in clusters]
    # a lone arrowhead or atom is no marker letter either
    kept = [c for c in trimmed if len(c) > 1 or not (_triangle(c[0]) or _disc(c[0]))]
    lines = _plausible([[d.rect for d in cluster] for cluster in kept])
    for speck in (d.rect for d in inside if _speck(d)):
        for line in lines:
            x0, y0, x1, y1 = union(line)
            reach = 0.6 * (y1 - y0)  # a trailing hyphen or full stop sits past the last glyph
            if center_in(speck, (x0 - reach, y0, x1 + reach, y1)):
                line.append(speck)
                break
    return [_fragment(line) for line in lines]


def _plausible(lines: list[list[Box]]) -> list[list[Box]]:
    """Drop lone dark specks unless the figure has lettering of their height (a marker)."""
    words = [line for line in lines if len(line) > 1]
    if not words:
        return []
    heights = sorted(max(b[3] for b in w) - min(b[1] for b in w) for w in words)
    typical = heights[len(heights) // 2]
    return [
        line
        for line in lines
        if len(line) > 1 or 0.5 * typical <= line[0][3] - line[0][1] <= 1.3 * typical
    ]


def _fragment(line: list[Box]) -> Fragment:
    box = union(line)
    size = (box[3] - box[1]) / CAP_RATIO
    return Fragment(text="", bbox=box, size=size, kind="outline", parts=[box])


def erase_outlines(page: pymupdf.Page, line_boxes: Iterable[Box]) -> int:
    """Delete the paths fully covered by the (slightly grown) line boxes; returns the passes.

    Measured on PyMuPDF 2.0: where redaction rects overlap, paths in the overlap
    are often *not* removed (many per-glyph rects left a third of the glyphs;
    two tight label lines left the first line's descenders). So the rects are
    per line, grown by a point (coverage is tested against the path's control
    points, which poke out of bowls like "a"), and rects that overlap go in separate
    redaction passes. They are never merged into their union: on a figure placed small, two
    labels' boxes plus the gap between them can cover real drawing, which would be deleted.
    """
    passes: list[list[Box]] = []
    for rect in (grown(b, 1.0) for b in line_boxes):
        free = next((p for p in passes if not any(overlaps(rect, other) for other in p)), None)
        if free is None:
            passes.append([rect])
        else:
            free.append(rect)
    for rects in passes:
        for rect in rects:
            # pymupdf takes fill=False (no fill) but annotates ``fill`` as a colour sequence only
            page.add_redact_annot(pymupdf.Rect(rect), fill=False, cross_out=False)  # type: ignore[arg-type]
        redact.apply(
            page,
            images=pymupdf.mupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.mupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
            text=pymupdf.mupdf.PDF_REDACT_TEXT_NONE,
        )
    return len(passes)
