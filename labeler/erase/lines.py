"""Thin-line detection in raster figures.

Leader lines in textbook figures are thin dark strokes drawn over white space
*and* over coloured fills. A global threshold cannot find them on both, so the
detector uses the morphological black-hat (closing minus image): it responds to
dark structures narrower than the kernel whatever the background, and ignores the
edges of filled regions (a step edge survives a closing unchanged). The straight
pieces of that mask are found with OpenCV's line segment detector; the small
ray-walking helpers below follow a line pixel by pixel, which is what the label
eraser and the anchor finder need.

All points are ``(x, y)`` floats in image pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True)
class Segment:
    """A straight piece of line from ``p0`` to ``p1``."""

    p0: Point
    p1: Point
    width: float = 1.0  # stroke width across the segment, px

    @property
    def length(self) -> float:
        return math.dist(self.p0, self.p1)

    def unit(self) -> Point:
        """Unit vector from ``p0`` to ``p1``."""
        length = self.length or 1.0
        return ((self.p1[0] - self.p0[0]) / length, (self.p1[1] - self.p0[1]) / length)


def thin_dark_mask(rgb: np.ndarray, *, max_width: int = 6, min_contrast: int = 40) -> np.ndarray:
    """Pixels of dark strokes at most about ``max_width`` px wide, on any background.

    ``min_contrast`` is how much darker (0-255 grey levels) than its surroundings a
    pixel must be; 40 keeps the pale grey outlines of drawings as well as black
    leader lines, and drops JPEG ringing (±15 levels).
    """
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    size = 2 * max_width + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    blackhat = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, kernel)
    return blackhat >= min_contrast


def find_segments(mask: np.ndarray, *, min_length: float) -> list[Segment]:
    """Centre lines of the straight strokes at least ``min_length`` px long in ``mask``.

    OpenCV's line segment detector (LSD) is deterministic and finds short lines
    next to busy drawing, where the probabilistic Hough transform silently drops
    them. LSD traces *edges*, with the dark side always on the left of its
    direction, so each edge is moved half the stroke's width towards the dark side
    to get the centre line (both edges of one stroke give about the same centre).
    """
    binary = np.where(mask, 0, 255).astype(np.uint8)
    found = _detector().detect(binary)[0]
    if found is None:
        return []
    edges = []
    for x0, y0, x1, y1 in found.reshape(-1, 4).astype(float):
        length = math.hypot(x1 - x0, y1 - y0)
        if length >= min_length:
            u = ((x1 - x0) / length, (y1 - y0) / length)
            edges.append((x0, y0, x1, y1, -u[1], u[0]))
    if not edges:
        return []
    widths = _widths_towards(mask, np.array(edges, dtype=float))
    segments = []
    for (x0, y0, x1, y1, dx, dy), width in zip(edges, widths.tolist(), strict=True):
        if width == 0:
            continue
        shift = width / 2
        segments.append(
            Segment((x0 + dx * shift, y0 + dy * shift), (x1 + dx * shift, y1 + dy * shift), width)
        )
    return segments


@cache
def _detector() -> cv2.LineSegmentDetector:
    return cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD)


def _widths_towards(mask: np.ndarray, edges: np.ndarray, limit: int = 8) -> np.ndarray:
    """Median width of the stroke found by stepping from each edge along its dark normal.

    ``edges`` is n × (x0, y0, x1, y1, nx, ny). The stroke is sampled at a quarter, half and
    three quarters of the edge, in half-pixel steps; up to one pixel of misses is allowed
    before the stroke starts, because a diagonal edge falls between pixel centres. All edges
    are stepped together (LSD finds a few thousand on a figure: one Python loop per edge and
    step cost a fifth of a second per call).
    """
    height, width = mask.shape
    x0, y0, x1, y1, nx, ny = (edges[:, i : i + 1] for i in range(6))
    steps = np.arange(-2, 2 * limit, dtype=float)
    hits = np.zeros((len(edges), 3), dtype=np.int64)
    for column, t in enumerate((0.25, 0.5, 0.75)):
        cx, cy = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        # rint rounds half to even, as round() does
        xi = np.rint(cx + nx * steps / 2).astype(np.int64)
        yi = np.rint(cy + ny * steps / 2).astype(np.int64)
        inside = (xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)
        inked = np.zeros(xi.shape, dtype=bool)
        inked[inside] = mask[yi[inside], xi[inside]]
        count = np.zeros(len(edges), dtype=np.int64)
        going = np.ones(len(edges), dtype=bool)
        for j, k in enumerate(steps):
            count += going & inked[:, j]
            # a miss ends the run once the stroke has started or the first pixel is passed
            going &= inked[:, j] | ((count == 0) & (k < 2))
        hits[:, column] = count
    return np.median(hits / 2, axis=1)


def _hit(mask: np.ndarray, x: float, y: float, u: Point, tolerance: int) -> bool:
    """Is there a stroke pixel at (x, y) or up to ``tolerance`` px across the ray?"""
    height, width = mask.shape
    for k in range(-tolerance, tolerance + 1):
        xi = round(x - u[1] * k)
        yi = round(y + u[0] * k)
        if 0 <= xi < width and 0 <= yi < height and mask[yi, xi]:
            return True
    return False


def walk(
    mask: np.ndarray,
    start: Point,
    u: Point,
    *,
    max_steps: int,
    max_gap: int = 2,
    tolerance: int = 1,
    max_width: int | None = None,
    max_wide: int = 25,
) -> Point:
    """Follow a straight stroke from ``start`` along unit ``u``; return its last pixel.

    Gaps of up to ``max_gap`` px are bridged (antialiasing and JPEG leave holes in
    thin diagonal lines). With ``max_width``, stretches where the stroke pixels
    across the ray spread wider than that are crossed only if the thin stroke
    resumes within ``max_wide`` px (a leader crossing a dotted or outlined part on
    its way); otherwise the walk ends where the wide stretch began, which is
    where the line meets the part it points at. Returns ``start`` if nothing lies
    ahead.
    """
    last = start
    misses = wide = 0
    wide_start: Point | None = None
    for step in range(1, max_steps + 1):
        x, y = start[0] + u[0] * step, start[1] + u[1] * step
        if not _hit(mask, x, y, u, tolerance):
            misses += 1
            if misses > max_gap:
                break
            continue
        misses = 0
        if max_width is not None and _across(mask, x, y, u, max_width + 4) > max_width:
            wide_start = wide_start or (x, y)
            wide += 1
            if wide > max_wide:
                break
            continue
        last, wide, wide_start = (x, y), 0, None
    return wide_start or last


def _across(mask: np.ndarray, x: float, y: float, u: Point, reach: int) -> int:
    """Stroke pixels on the perpendicular through (x, y), up to ``reach`` px each side."""
    height, width = mask.shape
    count = 0
    for k in range(-reach, reach + 1):
        xi, yi = round(x - u[1] * k), round(y + u[0] * k)
        count += bool(0 <= xi < width and 0 <= yi < height and mask[yi, xi])
    return count


def ink_fraction(
    mask: np.ndarray, start: Point, u: Point, length: int, tolerance: int = 1
) -> float:
    """Share of the ``length`` px ahead of ``start`` along ``u`` that lie on a stroke."""
    if length <= 0:
        return 0.0
    hits = sum(
        _hit(mask, start[0] + u[0] * step, start[1] + u[1] * step, u, tolerance)
        for step in range(1, length + 1)
    )
    return hits / length


def ink_fractions(
    mask: np.ndarray, starts: np.ndarray, us: np.ndarray, length: int, tolerance: int = 1
) -> np.ndarray:
    """:func:`ink_fraction` of many rays at once (``starts`` and units ``us`` are n × 2).

    The same pixels are looked at, rounded the same way (half to even), for callers that
    test hundreds of line ends where one call each would cost tens of milliseconds.
    """
    if length <= 0 or len(starts) == 0:
        return np.zeros(len(starts))
    height, width = mask.shape
    steps = np.arange(1, length + 1, dtype=float)[None, :, None]  # (1, length, 1)
    across = np.arange(-tolerance, tolerance + 1, dtype=float)[None, None, :]
    x = starts[:, 0, None, None] + us[:, 0, None, None] * steps
    y = starts[:, 1, None, None] + us[:, 1, None, None] * steps
    xi = np.rint(x - us[:, 1, None, None] * across).astype(np.int64)
    yi = np.rint(y + us[:, 0, None, None] * across).astype(np.int64)
    inside = (xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)
    inked = np.zeros(xi.shape, bool)
    inked[inside] = mask[yi[inside], xi[inside]]
    return np.asarray(inked.any(axis=2).mean(axis=1))


def longest_gap(mask: np.ndarray, start: Point, u: Point, length: int, tolerance: int = 1) -> int:
    """Longest run of steps along ``u`` from ``start`` (``length`` px) with no stroke pixel.

    A line crossing a label is unbroken through its text (glyph strokes touching it only add
    ink); two collinear leaders, one leaving each end of the label, leave the gaps between
    letters and inside their counters empty.
    """
    longest = run = 0
    for step in range(1, length + 1):
        if _hit(mask, start[0] + u[0] * step, start[1] + u[1] * step, u, tolerance):
            run = 0
        else:
            run += 1
            longest = max(longest, run)
    return longest


def draw_band(mask: np.ndarray, p0: Point, p1: Point, half_width: float) -> None:
    """Set ``mask`` (uint8, in place) to 1 within about ``half_width`` px of segment p0-p1."""
    shift = 4
    scale = 1 << shift
    cv2.line(
        mask,
        (round(p0[0] * scale), round(p0[1] * scale)),
        (round(p1[0] * scale), round(p1[1] * scale)),
        1,
        thickness=max(1, round(2 * half_width)),
        lineType=cv2.LINE_8,
        shift=shift,
    )


def sample(image: np.ndarray, point: Point) -> float:
    """Value of ``image`` at the pixel nearest to ``point`` (clamped to the image)."""
    x = min(max(round(point[0]), 0), image.shape[1] - 1)
    y = min(max(round(point[1]), 0), image.shape[0] - 1)
    return float(image[y, x])


def ahead(point: Point, u: Point, distance: float) -> Point:
    """The point ``distance`` px from ``point`` along unit ``u``."""
    return (point[0] + u[0] * distance, point[1] + u[1] * distance)
