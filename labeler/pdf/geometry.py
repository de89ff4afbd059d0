"""Box arithmetic shared by harvest, erasure and figure proposals.

Boxes are ``(x0, y0, x1, y1)`` tuples. Two types say which unit a box is in, because
mixing them is a silent factor-of-zoom bug: :data:`Box` is in PDF points of the page
(top-left origin, what items, keys and edits store) and :data:`PixelBox` in the pixels of
a rendered image. The arithmetic below works on either.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TypeVar

import pymupdf

Box = tuple[float, float, float, float]  # PDF points, top-left origin
PixelBox = tuple[int, int, int, int]  # pixels of a rendered image
Point = tuple[float, float]
AnyBox = TypeVar("AnyBox", bound=Sequence[float])


def as_box(values: Iterable[float]) -> Box:
    """The four numbers ``values`` (a list, a tuple, a row) as a :data:`Box` tuple."""
    x0, y0, x1, y1 = values
    return (x0, y0, x1, y1)


def rect_box(rect: pymupdf.Rect) -> Box:
    """A pymupdf rectangle as a :data:`Box` tuple (what ``tuple(rect)`` gives)."""
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def union(boxes: Iterable[Sequence[float]]) -> Box:
    """The smallest box holding all ``boxes`` (at least one)."""
    boxes = list(boxes)
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def center(box: Sequence[float]) -> Point:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def center_in(box: Sequence[float], area: Sequence[float]) -> bool:
    """True when the centre of ``box`` lies in ``area``: the rule for "this belongs there"."""
    cx, cy = center(box)
    return area[0] <= cx <= area[2] and area[1] <= cy <= area[3]


def first_containing(box: Sequence[float], areas: Iterable[AnyBox]) -> AnyBox | None:
    """The first of ``areas`` holding the centre of ``box``, or None."""
    return next((a for a in areas if center_in(box, a)), None)


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """True when the boxes share any point (touching counts)."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def overlap_share(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two boxes (0 when they do not overlap, 1 when equal)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area if area > 0 else 0.0


def intersection(a: Sequence[float], b: Sequence[float]) -> Box | None:
    """The common part of two boxes, or None when they share no area."""
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def box_area(box: Sequence[float]) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def grown(box: Sequence[float], by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def merge_overlapping(boxes: Iterable[Sequence[float]]) -> list[Box]:
    """Replace every group of overlapping boxes by their union."""
    merged: list[Box] = []
    for box in boxes:
        current = as_box(box)
        while (other := next((m for m in merged if overlaps(m, current)), None)) is not None:
            merged.remove(other)
            current = union([current, other])
        merged.append(current)
    return merged


def distance_to_box(point: Point, box: Sequence[float]) -> float:
    """Euclidean distance from ``point`` to ``box`` (0 inside)."""
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)
