"""Thin lines running into a label region: followed across it, protected, repaired.

A line that comes out on the other side of the region passes through it and keeps its pixels
across the whole region; one that does not is a leader ending at the label, protected only up
to the text. Where a letter crosses a protected line, the glyph's ticks are repainted with the
line's own colour (see ``raster``'s module docstring for the whole procedure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from labeler.erase.lines import (
    Point,
    Segment,
    ahead,
    draw_band,
    find_segments,
    ink_fraction,
    longest_gap,
    sample,
    walk,
)
from labeler.erase.raster_window import INK_DISTANCE, Window, past_region

#: Share of a line's continuation that must be stroke pixels to call it a line
#: passing through (gaps come from JPEG and antialiasing of diagonals).
THROUGH_FRACTION = 0.6

#: A gap (px) in a line's stroke across a label at least this long means the line does not
#: cross the label: it is two collinear leaders, one leaving each end of the word.
THROUGH_GAP = 3


@dataclass(frozen=True)
class Line:
    """A thin line running into a region: ``entry`` on its border, heading ``u``."""

    far: Point
    entry: Point
    exit: Point
    u: Point
    width: float
    through: bool


def protected_pixels(win: Window, lines: list[Line], core: np.ndarray) -> np.ndarray:
    """Region pixels on lines crossing it, or on leader stubs up to the text."""
    protect = np.zeros(win.inside.shape, np.uint8)
    for line in lines:
        end = line.exit if line.through else _stub_end(win.thin, core, line)
        draw_band(protect, ahead(line.entry, line.u, -2), end, line.width / 2 + 0.5)
    return protect.astype(bool) & win.inside


def crossing_repairs(
    crop: np.ndarray, lines: list[Line], protected: np.ndarray, outside: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Protected pixels where a glyph stroke crosses a line, and the line's colour there.

    The protected band is a little wider than the line, so where a letter crosses
    it a short tick of glyph ink would survive on each side. The line's own
    profile across its width is measured where it runs outside the labels; a
    protected pixel much darker than that profile at the same distance from the
    centre is glyph ink and is repainted with the profile's colour.
    """
    repair = np.zeros(protected.shape, bool)
    colours = np.zeros_like(crop)
    if not lines or not protected.any():
        return repair, colours
    gray = crop.astype(np.float32).mean(axis=2)
    yy, xx = np.mgrid[0 : protected.shape[0], 0 : protected.shape[1]].astype(np.float32)
    for line in lines:
        normal = (-line.u[1], line.u[0])
        across = (xx - line.entry[0]) * normal[0] + (yy - line.entry[1]) * normal[1]
        along = (xx - line.entry[0]) * line.u[0] + (yy - line.entry[1]) * line.u[1]
        near = np.abs(across) <= line.width / 2 + 1.5
        reference = near & outside & (along < -1) & (along >= -math.dist(line.far, line.entry))
        band = near & protected & (along >= -2)
        bins = np.round(across * 2).astype(np.int32)
        profile = {}
        for b in np.unique(bins[reference]):
            ref = reference & (bins == b)
            if ref.sum() >= 3:
                profile[int(b)] = (float(np.median(gray[ref])), np.median(crop[ref], axis=0))
        for b in np.unique(bins[band]):
            # the centre estimate may drift by a pixel along the box: compare with
            # the darkest part of the profile within a pixel of this offset
            nearby = [profile[k] for k in range(b - 2, b + 3) if k in profile]
            if int(b) not in profile or not nearby:
                continue
            expected = min(g for g, _ in nearby)
            dark = band & (bins == b) & (gray < expected - INK_DISTANCE)
            repair |= dark
            colours[dark] = profile[int(b)][1].astype(np.uint8)
    return repair, colours


def lines_into(win: Window) -> list[Line]:
    """Thin lines in the ring whose ray enters the region, followed across it."""
    inside, outside_thin, ring = win.inside, win.thin & ~win.in_labels, win.ring
    segments = find_segments(outside_thin & ring, min_length=max(6, win.margin * 0.5))
    if not segments:
        return []
    to_region = cv2.distanceTransform((~inside).astype(np.uint8), cv2.DIST_L2, 3)
    lines = []
    for segment in segments:
        near, far = sorted((segment.p0, segment.p1), key=lambda p: sample(to_region, p))
        if sample(to_region, near) > 3:
            continue
        u = Segment(far, near).unit()
        entry = _first_inside(inside, near, u, limit=5.0)
        if entry is None or _grazes(outside_thin & ring, near, u):
            continue
        exit_ = _last_inside(inside, entry, u)
        beyond = past_region(win.margin)
        through = (
            ink_fraction(outside_thin, exit_, u, beyond) >= THROUGH_FRACTION
            and longest_gap(win.thin, entry, u, round(math.dist(entry, exit_))) < THROUGH_GAP
        )
        lines.append(Line(far, entry, exit_, u, min(segment.width, 6.0), through))
    return _merge_duplicates(lines)


def _grazes(strokes: np.ndarray, near: Point, u: Point, radius: int = 6) -> bool:
    """Does the stroke carry on outside the region right behind ``near``?

    A line entering a box has nothing behind its entry point but the box itself.
    A curve of the drawing that grazes the box (a round outline touching it) goes
    on outside the box on the other side: it is drawing, not a line into the label.
    """
    x, y = round(near[0]), round(near[1])
    y0, x0 = max(0, y - radius), max(0, x - radius)
    ys, xs = np.nonzero(strokes[y0 : y + radius + 1, x0 : x + radius + 1])
    dx, dy = xs + x0 - near[0], ys + y0 - near[1]
    behind = (dx * u[0] + dy * u[1] > 1.5) & (dx * dx + dy * dy <= radius * radius)
    return int(behind.sum()) >= 3


def _merge_duplicates(lines: list[Line]) -> list[Line]:
    """Merge the two edges of one stroke (LSD finds both) into one centre line.

    Each edge's centre estimate is off by a fraction of a pixel in opposite
    directions; averaging them keeps the protected band narrow, so less glyph ink
    survives where a line crosses text.
    """
    merged: list[Line] = []
    for line in lines:
        for i, kept in enumerate(merged):
            if kept.u[0] * line.u[0] + kept.u[1] * line.u[1] < math.cos(math.radians(3)):
                continue
            dx, dy = line.entry[0] - kept.entry[0], line.entry[1] - kept.entry[1]
            across = dx * -kept.u[1] + dy * kept.u[0]
            if abs(across) > 2.0:
                continue
            shift = (-kept.u[1] * across / 2, kept.u[0] * across / 2)
            merged[i] = Line(
                _moved(kept.far, shift),
                _moved(kept.entry, shift),
                _moved(kept.exit, shift),
                kept.u,
                max(kept.width, line.width),
                kept.through or line.through,
            )
            break
        else:
            merged.append(line)
    return merged


def _moved(point: Point, shift: Point) -> Point:
    return (point[0] + shift[0], point[1] + shift[1])


def _stub_end(thin: np.ndarray, core: np.ndarray, line: Line) -> Point:
    """Where a line that does not leave the region stops being protected.

    If the line runs unbroken across the text and carries on in the box's margin beyond
    it (an OCR box that swallowed the end of a line crossing the label, reading it as
    a dash), it is a crossing line and is kept to its last pixel; broken by the gaps
    between letters, it is one of two collinear leaders. Otherwise it is a
    leader ending at the label: kept as far as its pixels go, but never into the
    text itself.
    """
    length = int(math.dist(line.entry, line.exit))
    in_core = [bool(sample(core, ahead(line.entry, line.u, t))) for t in range(length + 1)]
    reach = walk(thin, line.entry, line.u, max_steps=max(1, length), max_gap=1)
    if not any(in_core):
        return reach
    first = in_core.index(True)
    last = first
    while last + 1 <= length and in_core[last + 1]:
        last += 1
    after = ahead(line.entry, line.u, last)
    margin = length - last
    unbroken = longest_gap(thin, ahead(line.entry, line.u, first), line.u, last - first)
    if (
        margin >= 3
        and unbroken < THROUGH_GAP
        and ink_fraction(thin, after, line.u, min(8, margin)) >= THROUGH_FRACTION
    ):
        return walk(thin, after, line.u, max_steps=margin, max_gap=1)
    stop = max(0, min(first - 1, int(math.dist(line.entry, reach))))
    return ahead(line.entry, line.u, stop)


def _first_inside(inside: np.ndarray, start: Point, u: Point, limit: float) -> Point | None:
    for s in np.arange(0.0, limit + 0.5, 0.5):
        point = ahead(start, u, float(s))
        if sample(inside, point):
            return point
    return None


def _last_inside(inside: np.ndarray, entry: Point, u: Point) -> Point:
    """Last point of the ray from ``entry`` still inside the region."""
    last = entry
    limit = inside.shape[0] + inside.shape[1]
    for s in np.arange(0.5, limit, 0.5):
        point = ahead(entry, u, float(s))
        x, y = round(point[0]), round(point[1])
        if not (0 <= x < inside.shape[1] and 0 <= y < inside.shape[0]) or not inside[y, x]:
            break
        last = point
    return last
