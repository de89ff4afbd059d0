"""The quad of a tilted text line, built as OCR reports one, for the tilted-label tests.

A tilted line is a rotated rectangle: its four corners, clockwise on the page from where
the text starts, are what the erase code reads (``OcrBox.quad``, ``Fragment.parts``), and
its axis-aligned hull is the box the upright code sees.
"""

from __future__ import annotations

import math

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


def along(angle: float) -> Point:
    """The unit vector along a line at ``angle`` degrees (counter-clockwise on the page)."""
    return (math.cos(math.radians(angle)), math.sin(math.radians(angle)))


def tilted_quad(start: Point, length: float, angle: float, height: float) -> Quad:
    """The corners of a line ``length`` long and ``height`` high running from ``start``."""
    ax, ay = along(angle)
    dx, dy = -ay, ax  # down, across the line
    x, y = start
    return (
        (x, y),
        (x + length * ax, y + length * ay),
        (x + length * ax + height * dx, y + length * ay + height * dy),
        (x + height * dx, y + height * dy),
    )


def hull(quad: Quad) -> tuple[float, float, float, float]:
    """The quad's axis-aligned bounding box ``(x0, y0, x1, y1)``."""
    xs, ys = [p[0] for p in quad], [p[1] for p in quad]
    return (min(xs), min(ys), max(xs), max(ys))
