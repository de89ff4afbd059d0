"""Line fragments: the unit the label grouper works on.

A fragment is one line of one label: words that sit on the same baseline close
together. Vector text, outline glyph clusters and OCR boxes all become
fragments, so one grouper serves all three erasure paths. ``parts`` carries
whatever the eraser later needs (characters, glyph paths, pixel boxes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from labeler.harvest.anchors import Leader
from labeler.pdf.content import TextSpan
from labeler.pdf.geometry import Box, Point, union

HORIZONTAL: Point = (1.0, 0.0)


@dataclass
class Fragment:
    """One line of label text with its box (points) and reading direction."""

    text: str
    bbox: Box
    size: float
    kind: str  # "vector" | "outline" | "ocr"
    direction: Point = HORIZONTAL
    parts: list = field(default_factory=list)
    leader: Leader | None = None  # set when found in pixels (raster leaders)

    @property
    def down(self) -> Point:
        """Unit vector from one line to the next in this fragment's reading frame."""
        dx, dy = self.direction
        return (-dy, dx)

    def extent(self, axis: Point) -> tuple[float, float]:
        """Min and max of the box corners projected on ``axis``."""
        x0, y0, x1, y1 = self.bbox
        values = [x * axis[0] + y * axis[1] for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        return min(values), max(values)


def fragments_from_spans(spans: Sequence[TextSpan]) -> list[Fragment]:
    """Split spans at wide gaps, then join neighbours on one baseline into fragments.

    A span can hold two labels separated by spaces (a wide gap), and one label
    can be several spans (a bold word, a font change), hence both steps.
    """
    pieces: list[Fragment] = []
    for span in spans:
        run: list = []
        last_end = None
        for ch in span.chars:
            if not ch.c.strip():
                continue
            along = _along(ch.bbox, span.direction)
            if run and last_end is not None and along[0] - last_end > span.size:
                pieces.append(_piece(run, span))
                run = []
            run.append(ch)
            last_end = along[1]
        if run:
            pieces.append(_piece(run, span))
    return merge_on_lines(pieces)


def _along(box: Box, direction: Point) -> tuple[float, float]:
    x0, y0, x1, y1 = box
    values = [
        x * direction[0] + y * direction[1] for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    ]
    return min(values), max(values)


def _piece(chars: list, span: TextSpan) -> Fragment:
    first = span.chars.index(chars[0])
    last = span.chars.index(chars[-1])
    # Take the spaces around the piece along, so no stray blank is left behind.
    while first > 0 and not span.chars[first - 1].c.strip():
        first -= 1
    while last + 1 < len(span.chars) and not span.chars[last + 1].c.strip():
        last += 1
    kept = span.chars[first : last + 1]
    return Fragment(
        text="".join(c.c for c in kept).strip(),
        bbox=union([c.bbox for c in chars]),
        size=span.size,
        kind="vector",
        direction=span.direction,
        parts=[(span, list(kept))],
    )


def _same_direction(a: Fragment, b: Fragment) -> bool:
    return a.direction[0] * b.direction[0] + a.direction[1] * b.direction[1] > 0.995


def merge_on_lines(pieces: Sequence[Fragment]) -> list[Fragment]:
    """Join pieces that share a baseline and nearly touch (gap under 0.6 × size)."""
    ordered = sorted(pieces, key=lambda f: (round(f.extent(f.down)[1]), f.extent(f.direction)[0]))
    merged: list[Fragment] = []
    for piece in ordered:
        for line in merged:
            if not _same_direction(line, piece):
                continue
            size = max(line.size, piece.size)
            lv = line.extent(line.down)
            pv = piece.extent(line.down)
            if abs(lv[1] - pv[1]) > 0.35 * size and abs(sum(lv) - sum(pv)) / 2 > 0.35 * size:
                continue
            gap = piece.extent(line.direction)[0] - line.extent(line.direction)[1]
            if -0.3 * size <= gap <= 0.6 * size:
                line.text = f"{line.text} {piece.text}"
                line.bbox = union([line.bbox, piece.bbox])
                line.size = size
                line.parts.extend(piece.parts)
                break
        else:
            merged.append(piece)
    return merged
