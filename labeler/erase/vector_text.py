"""Erase born-digital label text with pymupdf redaction, keeping all line art.

MuPDF removes every glyph whose box *touches* a redaction rectangle, and glyph
boxes run from ascender to descender, so in tight multi-line labels a word's box
also touches the line below. We therefore redact a thin band through the middle
of each line (or, for text at odd angles, a small square at each glyph's
centre): it touches exactly the glyphs of that line. All rects go into one
redaction annotation as its quads (see ``redact``). ``fill=False`` and the
explicit ``images``/``graphics`` options keep leader lines, arrowheads and
images that cross the label intact.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pymupdf

from labeler.erase import redact
from labeler.pdf.content import Char, TextSpan

BAND = 0.1  # × font size: thickness of the redaction band through a line


def _mid(char: Char) -> tuple[float, float]:
    x0, y0, x1, y1 = char.bbox
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def redaction_rects(span: TextSpan, chars: Sequence[Char]) -> list[pymupdf.Rect]:
    """Thin rects that touch exactly ``chars`` of ``span`` and nothing on other lines."""
    glyphs = list(chars)
    if not glyphs:
        return []
    half = max(BAND * span.size, 0.2) / 2
    first, last = _mid(glyphs[0]), _mid(glyphs[-1])
    dx, dy = span.direction
    if abs(dy) < 1e-3:  # horizontal: one band along the line's middle
        y = sum(_mid(c)[1] for c in glyphs) / len(glyphs)
        return [pymupdf.Rect(min(first[0], last[0]), y - half, max(first[0], last[0]), y + half)]
    if abs(dx) < 1e-3:  # vertical (rotated 90°): one upright band
        x = sum(_mid(c)[0] for c in glyphs) / len(glyphs)
        return [pymupdf.Rect(x - half, min(first[1], last[1]), x + half, max(first[1], last[1]))]
    rects = []
    for char in glyphs:
        x, y = _mid(char)
        rects.append(pymupdf.Rect(x - half, y - half, x + half, y + half))
    return rects


def erase_vector_text(page: pymupdf.Page, parts: Iterable[tuple[TextSpan, Sequence[Char]]]) -> int:
    """Remove the given characters from ``page`` (a work copy); returns the rect count."""
    rects = [rect for span, chars in parts for rect in redaction_rects(span, chars)]
    count = len(rects)
    if count:
        redact.add_quads(page, rects)
        redact.apply(
            page,
            images=pymupdf.mupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.mupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.mupdf.PDF_REDACT_TEXT_REMOVE,
        )
    return count
