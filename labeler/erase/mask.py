"""The curator's painted mask: brush strokes in page points, turned into pixels.

A stroke is stored as plain JSON, ``{"width": pt, "points": [[x, y], ...]}``,
in PDF points of the page (like every box in an item), so it stays put whatever
DPI the figure is rendered at. It is the last-resort edit for ink the automatic
paths missed (a stray glyph, a fragment OCR did not box, a smudge): what lies
under it is erased, with no line protection, because the curator chose it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from labeler.errors import LabelerError

MAX_WIDTH = 200.0  # points: wider than any figure's label; a typo, not a brush


@dataclass(frozen=True)
class Stroke:
    """One brush stroke: its width and the path of its centre, in page points."""

    width: float
    points: tuple[tuple[float, float], ...]

    @classmethod
    def from_json(cls, data: Any) -> Stroke:
        """A stroke from its JSON form; a clear error says what is wrong with bad input."""
        if not isinstance(data, Mapping) or set(data) != {"width", "points"}:
            raise LabelerError(
                f'a mask stroke is {{"width": pt, "points": [[x, y], ...]}}, not {data!r}'
            )
        width, points = data["width"], data["points"]
        if not _finite(width) or not 0 < width <= MAX_WIDTH:
            raise LabelerError(
                f"a mask stroke's width must be 0-{MAX_WIDTH:g} points, not {width!r}"
            )
        if not isinstance(points, Sequence) or isinstance(points, str) or not points:
            raise LabelerError(f"a mask stroke needs at least one [x, y] point, not {points!r}")
        pairs = []
        for point in points:
            if (
                not isinstance(point, Sequence)
                or isinstance(point, str)
                or len(point) != 2
                or not all(_finite(v) for v in point)
            ):
                raise LabelerError(f"a mask stroke's point is [x, y] in points, not {point!r}")
            pairs.append((float(point[0]), float(point[1])))
        return cls(float(width), tuple(pairs))

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "points": [list(p) for p in self.points]}

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        """The box the stroke covers (its path grown by half its width)."""
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        r = self.width / 2
        return (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)


def parse_strokes(data: Iterable[Any]) -> tuple[Stroke, ...]:
    """Strokes from their JSON form (``Stroke`` objects pass through)."""
    if isinstance(data, (str, Mapping)):
        raise LabelerError("mask strokes must be a list of strokes")
    return tuple(s if isinstance(s, Stroke) else Stroke.from_json(s) for s in data)


def stroke_mask(
    strokes: Sequence[Stroke],
    shape: tuple[int, ...],
    to_pixels: Callable[[tuple[float, float]], tuple[float, float]],
    zoom: float,
) -> np.ndarray:
    """The pixels ``strokes`` cover in an image of ``shape``, as a boolean mask.

    ``to_pixels`` maps a page point to the image's pixel coordinates and
    ``zoom`` is pixels per point. Round caps and joins (a disc at every point)
    match how the GUI draws the brush.
    """
    import cv2

    mask = np.zeros(shape[:2], np.uint8)
    for stroke in strokes:
        radius = max(1, round(stroke.width * zoom / 2))
        path = np.array([to_pixels(p) for p in stroke.points], np.float64).round().astype(np.int32)
        if len(path) > 1:
            cv2.polylines(mask, [path], False, 1, thickness=2 * radius, lineType=cv2.LINE_8)
        for x, y in path:
            cv2.circle(mask, (int(x), int(y)), radius, 1, thickness=-1)
    return mask.astype(bool)


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
