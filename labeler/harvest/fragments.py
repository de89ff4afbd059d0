"""Line fragments: the unit the label grouper works on.

A fragment is one line of one label: words that sit on the same baseline close
together. Vector text, outline glyph clusters and OCR boxes all become
fragments, so one grouper serves all three erasure paths. ``parts`` carries
whatever the eraser later needs (characters, glyph paths, pixel boxes).
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterable, Sequence
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
    #: The x-height in points, measured in the pixels of OCR lines (:mod:`.type_size`).
    x_height: float | None = None

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
    return merge_on_lines(split_at_gaps(spans))


def split_at_gaps(spans: Sequence[TextSpan]) -> list[Fragment]:
    """One piece per run of a span's glyphs with no gap wider than the font size."""
    pieces: list[Fragment] = []
    for span in spans:
        first = last = -1  # indices in span.chars of the current run's first and last glyph
        last_end = None
        for index, ch in enumerate(span.chars):
            if not ch.c.strip():
                continue
            along = _along(ch.bbox, span.direction)
            if first >= 0 and last_end is not None and along[0] - last_end > span.size:
                pieces.append(_piece(span, first, last))
                first = -1
            if first < 0:
                first = index
            last = index
            last_end = along[1]
        if first >= 0:
            pieces.append(_piece(span, first, last))
    return pieces


def _along(box: Box, direction: Point) -> tuple[float, float]:
    x0, y0, x1, y1 = box
    values = [
        x * direction[0] + y * direction[1] for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    ]
    return min(values), max(values)


def _piece(span: TextSpan, first: int, last: int) -> Fragment:
    """The fragment of ``span.chars[first..last]`` (both glyphs, not blanks)."""
    glyphs = [c for c in span.chars[first : last + 1] if c.c.strip()]
    # Take the spaces around the piece along, so no stray blank is left behind.
    while first > 0 and not span.chars[first - 1].c.strip():
        first -= 1
    while last + 1 < len(span.chars) and not span.chars[last + 1].c.strip():
        last += 1
    kept = span.chars[first : last + 1]
    return Fragment(
        text="".join(c.c for c in kept).strip(),
        bbox=union([c.bbox for c in glyphs]),
        size=span.size,
        kind="vector",
        direction=span.direction,
        parts=[(span, list(kept))],
    )


def _same_direction(a: Fragment, b: Fragment) -> bool:
    return a.direction[0] * b.direction[0] + a.direction[1] * b.direction[1] > 0.995


def _joins(line: Fragment, piece: Fragment) -> bool:
    """Whether ``piece`` continues ``line``: one baseline (or centre), and nearly touching."""
    if not _same_direction(line, piece):
        return False
    size = max(line.size, piece.size)
    if line.direction == HORIZONTAL and piece.direction == HORIZONTAL:
        # the general test below, written out for the common frame (identical results)
        lv0, lv1, pv0, pv1 = line.bbox[1], line.bbox[3], piece.bbox[1], piece.bbox[3]
        gap = piece.bbox[0] - line.bbox[2]
    else:
        lv0, lv1 = line.extent(line.down)
        pv0, pv1 = piece.extent(line.down)
        gap = piece.extent(line.direction)[0] - line.extent(line.direction)[1]
    if abs(lv1 - pv1) > 0.35 * size and abs(lv0 + lv1 - pv0 - pv1) / 2 > 0.35 * size:
        return False
    return -0.3 * size <= gap <= 0.6 * size


def _join(line: Fragment, piece: Fragment) -> None:
    size = max(line.size, piece.size)
    line.text = f"{line.text} {piece.text}"
    line.bbox = union([line.bbox, piece.bbox])
    line.size = size
    heights = [h for h in (line.x_height, piece.x_height) if h is not None]
    line.x_height = sum(heights) / len(heights) if heights else None
    line.parts.extend(piece.parts)


def merge_on_lines(pieces: Sequence[Fragment]) -> list[Fragment]:
    """Join pieces that share a baseline and nearly touch (gap under 0.6 × size).

    Pieces are taken in reading order (baseline, then along the line) and each joins the first
    earlier line it continues (:func:`_joins`). Near-linear in the pieces: baselines only move
    down the page, so a horizontal line whose bottom is above the current piece's by more than
    the largest tolerance can never take another horizontal piece and is retired from the
    candidates; a piece is compared with the lines of the few rows around it, not with every line
    of the page. Pieces and lines in other directions (rotated labels, rare) keep the exhaustive
    comparison, so the result is exactly that of comparing every pair in order.
    """
    ordered = sorted(pieces, key=lambda f: (round(f.extent(f.down)[1]), f.extent(f.direction)[0]))
    flat = [f for f in ordered if f.direction == HORIZONTAL]
    # A horizontal line can take a horizontal piece only while its bottom is within ``reach`` of
    # the piece's sort key: 0.5 for the key's rounding, half the tallest piece for the centre
    # test, 0.35 x the largest size for both tests' tolerance.
    reach = (
        0.5 + max((f.bbox[3] - f.bbox[1]) / 2 for f in flat) + 0.35 * max(f.size for f in ordered)
        if flat
        else 0.0
    )
    merged: list[Fragment] = []
    active: list[int] = []  # indices into merged of horizontal lines not yet retired (ascending)
    tilted: list[int] = []  # indices into merged of lines in any other direction (ascending)
    # sweep retired lines out once as many pieces have come as lines survived the last sweep:
    # each sweep costs at most twice the pieces since the previous one
    since_sweep = survivors = 0
    for piece in ordered:
        if piece.direction == HORIZONTAL:
            key = round(piece.extent(piece.down)[1])
            since_sweep += 1
            if since_sweep > survivors:
                active = [i for i in active if merged[i].bbox[3] >= key - reach]
                since_sweep, survivors = 0, len(active)
            candidates: Iterable[int] = heapq.merge(active, tilted) if tilted else active
        else:
            candidates = range(len(merged))
        target = next((i for i in candidates if _joins(merged[i], piece)), None)
        if target is not None:
            line = merged[target]
            _join(line, piece)
            moved_back = piece.direction != HORIZONTAL and line.direction == HORIZONTAL
            if moved_back and target not in active:  # a tilted piece moved a retired line down
                bisect.insort(active, target)
            continue
        (active if piece.direction == HORIZONTAL else tilted).append(len(merged))
        merged.append(piece)
    return merged
