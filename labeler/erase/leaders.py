"""Follow leader lines from their labels to the parts they name (raster figures).

A leader starts near its label, points at it, and runs away from it, straight or
as a polyline, to the drawing. The pieces come from the line segment detector
(:func:`labeler.erase.lines.find_segments`) run on the thin-stroke mask outside
all label boxes, so glyph strokes never pose as lines. For each label the
candidates are filtered (a free end next to this label and no other, pointing into
it, not crossing it, not a curve of the drawing grazing it), then chained: pieces
on the same line are joined across the gaps the detector leaves where a line
crosses busy drawing, a bend is taken only where it is a clean corner, and the
end is where the line's pixels stop. Only pixels about as dark as the leader
count from there on, so a black leader is followed across coloured detail (a
dotted reticulum) and stops where it meets the part, not inside its texture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from labeler.erase.lines import (
    Point,
    Segment,
    ahead,
    find_segments,
    ink_fraction,
    ink_fractions,
    longest_gap,
    sample,
    walk,
)
from labeler.pdf.geometry import PixelBox

#: Longest gap (px) between two pieces of one leader line that is bridged.
MAX_BRIDGE = 40
#: A leader's last stretch ends where its stroke spreads wider than this (px).
LINE_WIDTH_LIMIT = 9
#: A gap (px) this long in a line's stroke inside a label box: the line does not cross it.
THROUGH_GAP = 3
#: Pixels up to this many grey levels lighter than a leader count as the leader.
LINE_GRAY_MARGIN = 60


def leader_segments(outside: np.ndarray) -> list[Segment]:
    """The straight pieces leaders are made of: strokes of ``outside`` at least 10 px long."""
    return find_segments(outside, min_length=10)


def leader_ends(
    gray: np.ndarray,
    thin: np.ndarray,
    outside: np.ndarray,
    boxes: Sequence[PixelBox],
    segments: list[Segment] | None = None,
) -> list[tuple[float, float] | None]:
    """For each box, where the leader starting at it ends (None if there is none).

    ``gray`` is the image in grey levels, ``thin`` its thin dark stroke mask and
    ``outside`` the same with every label box blanked out; ``segments`` are
    :func:`leader_segments` of ``outside`` when the caller has them already.
    """
    if segments is None:
        segments = leader_segments(outside)
    if not segments or not boxes:
        return [None] * len(boxes)
    ends = np.array([[s.p0, s.p1] for s in segments], dtype=float)  # (n, 2, 2)
    rects = np.array(boxes, dtype=float)
    # distance of every segment end to every box: (n, 2, boxes)
    gaps = _rect_distance(ends[:, :, None, :], rects[None, None, :, :])
    nearest = gaps.argmin(axis=2)

    @cache
    def strokes_up_to(level: int) -> np.ndarray:
        """Thin strokes no lighter than ``level``: a black leader, not the grey
        or coloured detail of the part it crosses or ends on."""
        return thin & (gray <= level)

    def line_mask(near: Point, far: Point) -> np.ndarray:
        level = _line_gray(gray, near, far) + LINE_GRAY_MARGIN
        return strokes_up_to(int(round(level, -1)))

    return [
        _anchor_for(box, index, segments, ends, gaps, nearest, line_mask, (thin, outside))
        for index, box in enumerate(boxes)
    ]


def orphan_ends(
    outside: np.ndarray, boxes: Sequence[PixelBox], segments: list[Segment]
) -> list[Point]:
    """Free ends of leader-like lines that start at no box: where an unread label may be.

    A leader's label end is a free end on paper, a little way from its text; the
    other end runs into the drawing. So an end counts when its piece is longer
    than 1.5 median box heights (shorter ones are glyph strokes, ticks and
    texture), nothing continues behind it (:func:`_free_end`), it is not a curve
    of the drawing (:func:`_curve_continues`) and it lies further from every box
    than a leader of that box may start (``_anchor_for``'s tolerance). Most such
    ends are the drawing's own; the caller looks for a row of glyphs beside each.
    """
    if not segments or not boxes:
        return []
    height = float(np.median([b[3] - b[1] for b in boxes]))
    ends = np.array([[s.p0, s.p1] for s in segments], dtype=float)
    rects = np.array(boxes, dtype=float)
    tolerance = np.maximum(6.0, 0.7 * (rects[:, 3] - rects[:, 1]))
    gaps = _rect_distance(ends[:, :, None, :], rects[None, None, :, :])  # (n, 2, boxes)
    lengths = np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1)
    pieces, sides = np.nonzero(
        (lengths[:, None] >= 1.5 * height) & (gaps > tolerance[None, None, :]).all(axis=2)
    )
    nears = ends[pieces, sides]
    units = (ends[pieces, 1 - sides] - nears) / np.maximum(lengths[pieces], 1e-9)[:, None]
    # _free_end, for every candidate at once: nothing continues behind the end
    free = ink_fractions(outside, nears, -units, 6) < 0.5
    return [
        (float(x), float(y))
        for k, (x, y), u in zip(pieces[free], nears[free], units[free], strict=True)
        if not _curve_continues(int(k), (float(x), float(y)), (float(u[0]), float(u[1])), ends)
    ]


def _line_gray(gray: np.ndarray, near: Point, far: Point) -> float:
    """Median grey level along a piece of line (darkest pixel across it per step)."""
    u = Segment(near, far).unit()
    values = []
    for step in range(int(math.dist(near, far)) + 1):
        x, y = ahead(near, u, step)
        values.append(min(sample(gray, (x - u[1] * k, y + u[0] * k)) for k in (-1, 0, 1)))
    return float(np.median(values))


def _anchor_for(
    box: PixelBox,
    index: int,
    segments: list[Segment],
    ends: np.ndarray,
    gaps: np.ndarray,
    nearest: np.ndarray,
    line_mask: Callable[[Point, Point], np.ndarray],
    strokes: tuple[np.ndarray, np.ndarray],
) -> tuple[float, float] | None:
    """The end of this box's leader: candidates are filtered, followed, then ranked.

    Leaders in textbook figures stop short of their text by up to about half a
    line height (more for a box holding a whole multi-line label), so a piece may
    start up to 0.7 box heights away, but never further than half its own length.
    ``strokes`` are the thin stroke masks of the whole image and outside the boxes.
    """
    outside = strokes[1]
    height = box[3] - box[1]
    tolerance = max(6.0, 0.7 * height)
    found: list[tuple[float, float, Point]] = []  # (gap, reach, end)
    for k, segment in enumerate(segments):
        side = int(np.argmin(gaps[k, :, index]))
        gap = float(gaps[k, side, index])
        # short pieces (bracket ticks) must start closer than long leaders
        if gap > min(tolerance, max(10.0, 0.5 * segment.length)) or nearest[k, side] != index:
            continue
        near, far = (segment.p0, segment.p1) if side == 0 else (segment.p1, segment.p0)
        if gaps[k, 1 - side, index] < gap + 5:
            continue  # runs along the box, not away from it
        u = Segment(near, far).unit()
        if not _points_at(box, near, u, reach=2 * tolerance):
            continue  # e.g. a curve of the drawing passing by the label
        if not _free_end(outside, near, u) or _passes_through(box, strokes, near, u):
            continue
        if _curve_continues(k, near, u, ends):
            continue
        end = _follow(k, near, far, ends, line_mask(near, far), outside)
        found.append((gap, math.dist(near, end), end))
    if not found:
        return None
    # the leader is the line starting closest to the label; among lines starting
    # about as close (two leaders fanning out of one label) the longest
    closest = min(gap for gap, _, _ in found)
    _, _, end = max((f for f in found if f[0] <= closest + 3), key=lambda f: f[1])
    return (round(end[0], 1), round(end[1], 1))


def _follow(
    start: int, near: Point, far: Point, ends: np.ndarray, line: np.ndarray, outside: np.ndarray
) -> Point:
    """Chain straight pieces from ``far`` onwards; return where the line's pixels stop.

    ``line`` holds the stroke pixels as dark as this line; ``outside`` all thin
    strokes outside the labels.
    """
    used = {start}
    end = np.array(far)
    u = np.array(Segment(near, far).unit())
    for _ in range(12):
        step = _next_piece(end, u, ends, used, line, outside)
        if step is None:
            break
        k, end, u = step
        used.add(k)
    here, direction = (float(end[0]), float(end[1])), (float(u[0]), float(u[1]))
    return walk(line, here, direction, max_steps=80, max_width=LINE_WIDTH_LIMIT)


def _next_piece(
    end: np.ndarray,
    u: np.ndarray,
    ends: np.ndarray,
    used: set[int],
    line: np.ndarray,
    outside: np.ndarray,
) -> tuple[int, np.ndarray, np.ndarray] | None:
    """The piece continuing the line at ``end``: collinear first, else a clean bend.

    A bend (a leader drawn as a polyline) is only taken where nothing continues on
    the far side of the joint: at a T-junction the leader has reached an outline
    of the drawing, and following the outline would move the anchor away.
    """
    p0, p1 = ends[:, 0, :], ends[:, 1, :]
    vec = p1 - p0
    length = np.linalg.norm(vec, axis=1) + 1e-9
    unit = vec / length[:, None]
    flip = (unit @ u) < 0  # orient every piece along u
    a = np.where(flip[:, None], p1, p0)
    b = np.where(flip[:, None], p0, p1)
    unit = np.where(flip[:, None], -unit, unit)
    cos = unit @ u
    progress = (b - end) @ u
    rel = end[None, :] - a
    t = np.einsum("ij,ij->i", rel, unit)  # where ``end`` projects on each piece
    perp = np.abs(rel[:, 0] * unit[:, 1] - rel[:, 1] * unit[:, 0])
    free = np.ones(len(ends), bool)
    free[list(used)] = False
    collinear = free & (cos >= math.cos(math.radians(12))) & (perp <= 2.5)
    collinear &= (t >= -MAX_BRIDGE) & (t <= length + 4) & (progress > 3)
    here = (float(end[0]), float(end[1]))
    for k in np.argsort(-np.where(collinear, progress, -np.inf))[: int(collinear.sum())]:
        # the line detector breaks a line where it crosses busy drawing: bridge
        # short gaps freely, longer ones only where the line's pixels run on unbroken
        gap = -float(t[k])
        if (
            gap <= 12
            or math.dist(here, walk(line, here, tuple(u), max_steps=int(gap) + 2)) >= gap - 1
        ):
            return int(k), b[k], unit[k]
    gap = np.linalg.norm(a - end, axis=1)
    bend = free & (gap <= 4) & (cos >= math.cos(math.radians(70))) & (length >= 25)
    for k in np.argsort(-np.where(bend, length, 0))[: int(bend.sum())]:
        back = (-float(unit[k][0]), -float(unit[k][1]))
        # start a few px out: the incoming line's own width is right at the joint
        behind = ahead((float(end[0]), float(end[1])), back, 3)
        if ink_fraction(outside, behind, back, 6, tolerance=2) >= 0.3:
            continue
        if _curve_continues(int(k), (float(end[0]), float(end[1])), tuple(unit[k]), ends):
            continue
        return int(k), b[k], unit[k]
    return None


def _points_at(box: PixelBox, near: Point, u: Point, reach: float) -> bool:
    """Does the line, extended backwards from ``near``, run well into the box?

    A leader points at its label, so its extension crosses a good part of the box;
    a curve of the drawing that clips a corner of the box only grazes it.
    """
    x0, y0, x1, y1 = box
    depth = 0.3 * (y1 - y0)
    diagonal = math.hypot(x1 - x0, y1 - y0)
    steps = np.arange(0.0, reach + diagonal, 0.5)
    xs, ys = near[0] - u[0] * steps, near[1] - u[1] * steps
    inside = (xs >= x0 - 2) & (xs <= x1 + 2) & (ys >= y0 - 2) & (ys <= y1 + 2)
    if not inside.any() or steps[inside.argmax()] > reach:
        return False
    return inside.sum() * 0.5 >= depth


def _curve_continues(k: int, near: Point, u: Point, ends: np.ndarray) -> bool:
    """Does another piece start next to ``near`` and head the opposite way?

    That is a curve or line of the drawing touching the box (the circle of a cell
    nucleus whose lowest point grazes a label), not a leader starting there. Two
    leaders fanning out from one label point roughly the same way and pass.
    """
    gaps = np.linalg.norm(ends - np.array(near), axis=2)  # (n, 2)
    gaps[k] = np.inf
    j, side = np.nonzero(gaps <= 6)
    if len(j) == 0:
        return False
    away = ends[j, 1 - side] - ends[j, side]
    away /= np.linalg.norm(away, axis=1, keepdims=True) + 1e-9
    return bool((away @ np.array(u) < -0.77).any())


def _free_end(outside: np.ndarray, near: Point, u: Point) -> bool:
    """Does the line really start at ``near``? (no stroke continues behind it)"""
    behind = ink_fraction(outside, near, (-u[0], -u[1]), 6, tolerance=1)
    return behind < 0.5


def _passes_through(
    box: PixelBox, strokes: tuple[np.ndarray, np.ndarray], near: Point, u: Point
) -> bool:
    """Is this a line crossing the box rather than one starting at it?

    It crosses when it carries on beyond the far side and runs unbroken through the box: a
    line that stops at the text with another carrying on from its far end (collinear
    leaders, one leaving each end of the label) is a leader.
    """
    thin, outside = strokes
    back = (-u[0], -u[1])
    x0, y0, x1, y1 = box
    diag = math.hypot(x1 - x0, y1 - y0)
    steps = np.arange(0.0, diag + 8, 0.5)
    inside_flags = [
        x0 <= near[0] + back[0] * s < x1 and y0 <= near[1] + back[1] * s < y1 for s in steps
    ]
    if not any(inside_flags):
        return False
    last = max(i for i, flag in enumerate(inside_flags) if flag)
    exit_ = ahead(near, back, float(steps[last]))
    # a wide tolerance: a curve of the drawing clipping the box corner bends away
    # from the straight ray but still continues right there
    if ink_fraction(outside, exit_, back, 8, tolerance=2) < 0.5:
        return False
    first = next(i for i, flag in enumerate(inside_flags) if flag)
    crossing = int(steps[last] - steps[first])
    return longest_gap(thin, ahead(near, back, float(steps[first])), back, crossing) < THROUGH_GAP


def _rect_distance(points: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Euclidean distance from points (..., 2) to rectangles (..., 4), broadcast."""
    dx = np.maximum(np.maximum(rects[..., 0] - points[..., 0], 0), points[..., 0] - rects[..., 2])
    dy = np.maximum(np.maximum(rects[..., 1] - points[..., 1], 0), points[..., 1] - rects[..., 3])
    return np.hypot(dx, dy)
