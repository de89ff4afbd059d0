"""Erase burned-in labels from a raster figure without cutting its leader lines.

Filling a label's box with white (what older diagram datasets did) also deletes
every leader line that touches or crosses the box. Here each group of touching
boxes (a *region*) is handled like this:

1. Thin dark lines are found in a ring around the region, outside every label box
   (:mod:`labeler.erase.lines`). Glyph strokes live inside boxes, so the lines
   found there are drawing lines: leaders ending at the label, or lines passing by.
2. Each line that runs into the region is followed across it. If it comes out on
   the other side it is a line *passing through* and its pixels across the whole
   region are protected. Otherwise it is a leader ending at the label; its stub is
   protected only as far as line pixels go and never into the text itself.
3. Ink is what differs clearly from the ring's background colour. Ink connected to
   a large part of the drawing outside the boxes (a box that overlaps the drawing)
   is kept; the rest, minus the protected pixels, is glyph ink and is erased
   together with its antialiased fringe.
4. The erased pixels are painted white when the ring is white, and inpainted
   (``cv2.inpaint``) when the label sits on a coloured or textured background.

Only pixels inside the given boxes are ever changed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from labeler.erase.lines import (
    Point,
    Segment,
    draw_band,
    find_segments,
    ink_fraction,
    thin_dark_mask,
    walk,
)

Box = tuple[int, int, int, int]
FILL_MODES = ("auto", "white", "inpaint")

#: RGB distance from the background colour above which a pixel is ink (JPEG noise
#: around text stays below ~25; black text on white is ~440).
INK_DISTANCE = 60.0
#: Lower distance for the antialiased fringe around glyphs on coloured
#: backgrounds, erased only within two pixels of glyph ink.
FRINGE_DISTANCE = 10.0
#: A ring pixel is "white" when every channel is at least this bright.
WHITE_LEVEL = 235
#: Share of a line's continuation that must be stroke pixels to call it a line
#: passing through (gaps come from JPEG and antialiasing of diagonals).
THROUGH_FRACTION = 0.6


@dataclass(frozen=True)
class _Line:
    """A thin line running into a region: ``entry`` on its border, heading ``u``."""

    far: Point
    entry: Point
    exit: Point
    u: Point
    width: float
    through: bool


def erase_raster_labels(
    rgb: np.ndarray, boxes: Sequence[Sequence[float]], *, fill: str = "auto"
) -> np.ndarray:
    """Return a copy of ``rgb`` with the label ink inside ``boxes`` erased.

    Lines that cross a box, or leader lines that run into it, keep their pixels
    (see the module docstring). ``fill`` is ``"white"``, ``"inpaint"`` or
    ``"auto"`` (white when the ring around the box is white, inpainting otherwise).
    Pixels outside the boxes are never changed.
    """
    _check_image(rgb)
    if fill not in FILL_MODES:
        raise ValueError(f"fill must be one of {FILL_MODES}, got {fill!r}")
    out = rgb.copy()
    clean = [b for b in (_clamp(b, rgb.shape) for b in boxes) if b is not None]
    if not clean:
        return out
    labels = _label_mask(rgb.shape, clean)
    thin = thin_dark_mask(rgb)
    for region, region_boxes in _regions(labels, clean):
        _erase_region(rgb, out, labels, thin, region, region_boxes, fill)
    return out


def find_raster_anchors(
    rgb: np.ndarray, boxes: Sequence[Sequence[float]]
) -> list[tuple[float, float] | None]:
    """For each box, the far end of the leader line that starts at it, else None.

    A leader starts within about half a text height of its label (the box nearest
    to that end), is a free end there (not a curve of the drawing passing by) and
    does not pass through the box. It is followed across small gaps and, where
    it bends, on to the next long straight piece; the end is where its pixels stop.
    When a label has several leaders the longest one is returned.
    """
    _check_image(rgb)
    clamped = [_clamp(b, rgb.shape) for b in boxes]
    clean = [b for b in clamped if b is not None]
    if not clean:
        return [None] * len(clamped)
    labels = _label_mask(rgb.shape, clean)
    thin = thin_dark_mask(rgb)
    outside = thin & ~labels
    segments = find_segments(outside, min_length=10)
    if not segments:
        return [None] * len(clamped)
    ends = np.array([[s.p0, s.p1] for s in segments], dtype=float)  # (n, 2, 2)
    rects = np.array(clean, dtype=float)
    # distance of every segment end to every box: (n, 2, boxes)
    gaps = _rect_distance(ends[:, :, None, :], rects[None, None, :, :])
    nearest = gaps.argmin(axis=2)
    anchors: list[tuple[float, float] | None] = []
    for box in clamped:
        if box is None:
            anchors.append(None)
            continue
        index = clean.index(box)
        anchors.append(_anchor_for(box, index, segments, ends, gaps, nearest, thin, outside))
    return anchors


# --- erasure -----------------------------------------------------------------------


def _erase_region(
    rgb: np.ndarray,
    out: np.ndarray,
    labels: np.ndarray,
    thin: np.ndarray,
    region: np.ndarray,
    boxes: list[Box],
    fill: str,
) -> None:
    heights = [b[3] - b[1] for b in boxes]
    margin = int(np.clip(round(0.6 * float(np.median(heights))), 8, 30))
    beyond = max(6, margin // 2)
    ys, xs = np.nonzero(region)
    pad = margin + beyond + 2
    x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
    x1, y1 = min(rgb.shape[1], xs.max() + pad + 1), min(rgb.shape[0], ys.max() + pad + 1)
    crop = rgb[y0:y1, x0:x1]
    inside = region[y0:y1, x0:x1]
    in_labels = labels[y0:y1, x0:x1]
    thin_c = thin[y0:y1, x0:x1]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * margin + 1, 2 * margin + 1))
    near = cv2.dilate(inside.astype(np.uint8), kernel).astype(bool)
    ring = near & ~in_labels

    lines = _lines_into(inside, thin_c & ~in_labels, ring, margin, beyond)

    background = _background(crop, ring & ~thin_c)
    distance = np.linalg.norm(crop.astype(np.float32) - background, axis=2)
    ink = distance > INK_DISTANCE

    full = np.zeros(inside.shape, np.uint8)
    for line in lines:
        end = _ahead(line.exit, line.u, beyond) if line.through else line.exit
        draw_band(full, line.far, end, line.width / 2 + 1.5)
    banded = full.astype(bool)
    drawing = _drawing_ink(ink & near & ~banded, inside, in_labels, min(heights))
    core = _text_cores(ink & inside & ~banded & ~drawing, boxes, (x0, y0), inside.shape)
    # the bands also cut drawing outlines that graze a box; give those pixels back
    drawing = _connected_to(drawing, ink & near & ~core.astype(bool))
    protect = np.zeros(inside.shape, np.uint8)
    for line in lines:
        end = line.exit if line.through else _stub_end(thin_c, core, line)
        draw_band(protect, _ahead(line.entry, line.u, -2), end, line.width / 2 + 0.5)
    protected = protect.astype(bool) & inside
    repair, colours = _crossing_repairs(crop, lines, protected, ~in_labels)
    protected &= ~repair

    if fill == "auto":
        fill = "white" if _is_white(crop, ring & ~thin_c, background) else "inpaint"
    glyph = ink & inside & ~drawing & ~protected
    erase = glyph | _fringe(glyph, distance, white=fill == "white")
    erase &= inside & ~protected & ~drawing & ~repair
    target = out[y0:y1, x0:x1]
    target[repair] = colours[repair]
    if fill == "white":
        target[erase] = 255
    elif erase.any():
        unknown = (erase | protected).astype(np.uint8) * 255
        painted = cv2.inpaint(np.ascontiguousarray(target), unknown, 3, cv2.INPAINT_TELEA)
        target[erase] = painted[erase]


def _fringe(glyph: np.ndarray, distance: np.ndarray, *, white: bool) -> np.ndarray:
    """The glyphs' antialiased edges and JPEG ringing, which the ink threshold misses.

    On white paper every pixel within three pixels of a glyph is painted: ringing
    a few levels off white still shows as a ghost of the word. On a coloured
    background only pixels clearly off the background colour are taken, so that
    inpainting keeps as much of the real background as possible.
    """
    if white:
        return cv2.dilate(glyph.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
    around = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return (distance > FRINGE_DISTANCE) & cv2.dilate(glyph.astype(np.uint8), around).astype(bool)


def _crossing_repairs(
    crop: np.ndarray, lines: list[_Line], protected: np.ndarray, outside: np.ndarray
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


def _lines_into(
    inside: np.ndarray, outside_thin: np.ndarray, ring: np.ndarray, margin: int, beyond: int
) -> list[_Line]:
    """Thin lines in the ring whose ray enters the region, followed across it."""
    segments = find_segments(outside_thin & ring, min_length=max(6, margin * 0.5))
    if not segments:
        return []
    to_region = cv2.distanceTransform((~inside).astype(np.uint8), cv2.DIST_L2, 3)
    lines = []
    for segment in segments:
        near, far = sorted((segment.p0, segment.p1), key=lambda p: _sample(to_region, p))
        if _sample(to_region, near) > 3:
            continue
        u = Segment(far, near).unit()
        entry = _first_inside(inside, near, u, limit=5.0)
        if entry is None or _grazes(outside_thin & ring, near, u):
            continue
        exit_ = _last_inside(inside, entry, u)
        through = ink_fraction(outside_thin, exit_, u, beyond) >= THROUGH_FRACTION
        lines.append(_Line(far, entry, exit_, u, min(segment.width, 6.0), through))
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


def _merge_duplicates(lines: list[_Line]) -> list[_Line]:
    """Merge the two edges of one stroke (LSD finds both) into one centre line.

    Each edge's centre estimate is off by a fraction of a pixel in opposite
    directions; averaging them keeps the protected band narrow, so less glyph ink
    survives where a line crosses text.
    """
    merged: list[_Line] = []
    for line in lines:
        for i, kept in enumerate(merged):
            if kept.u[0] * line.u[0] + kept.u[1] * line.u[1] < math.cos(math.radians(3)):
                continue
            dx, dy = line.entry[0] - kept.entry[0], line.entry[1] - kept.entry[1]
            across = dx * -kept.u[1] + dy * kept.u[0]
            if abs(across) > 2.0:
                continue
            shift = (-kept.u[1] * across / 2, kept.u[0] * across / 2)
            merged[i] = _Line(
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


def _stub_end(thin: np.ndarray, core: np.ndarray, line: _Line) -> Point:
    """Where a line that does not leave the region stops being protected.

    If the line runs across the text and carries on in the box's margin beyond it
    (an OCR box that swallowed the end of a line crossing the label, reading it as
    a dash), it is a crossing line and is kept to its last pixel. Otherwise it is a
    leader ending at the label: kept as far as its pixels go, but never into the
    text itself.
    """
    length = int(math.dist(line.entry, line.exit))
    in_core = [bool(_sample(core, _ahead(line.entry, line.u, t))) for t in range(length + 1)]
    reach = walk(thin, line.entry, line.u, max_steps=max(1, length), max_gap=1)
    if not any(in_core):
        return reach
    first = in_core.index(True)
    last = first
    while last + 1 <= length and in_core[last + 1]:
        last += 1
    after = _ahead(line.entry, line.u, last)
    margin = length - last
    if margin >= 3 and ink_fraction(thin, after, line.u, min(8, margin)) >= THROUGH_FRACTION:
        return walk(thin, after, line.u, max_steps=margin, max_gap=1)
    stop = max(0, min(first - 1, int(math.dist(line.entry, reach))))
    return _ahead(line.entry, line.u, stop)


def _text_cores(
    glyphs: np.ndarray, boxes: list[Box], origin: tuple[int, int], shape: tuple[int, ...]
) -> np.ndarray:
    """Per box, the tight rectangle around its glyph ink (leaders stop there)."""
    core = np.zeros(shape[:2], np.uint8)
    ox, oy = origin
    for bx0, by0, bx1, by1 in boxes:
        sub = glyphs[by0 - oy : by1 - oy, bx0 - ox : bx1 - ox]
        ys, xs = np.nonzero(sub)
        if len(xs) < 4:
            continue
        core[
            by0 - oy + ys.min() : by0 - oy + ys.max() + 1,
            bx0 - ox + xs.min() : bx0 - ox + xs.max() + 1,
        ] = 1
    return core


def _drawing_ink(
    ink: np.ndarray, inside: np.ndarray, in_labels: np.ndarray, height: int
) -> np.ndarray:
    """Ink belonging to the drawing: components reaching well outside the boxes."""
    count, comp = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros(ink.shape, bool)
    inner = np.bincount(comp[inside], minlength=count)
    outer = np.bincount(comp[~in_labels], minlength=count)
    keep = outer >= np.maximum(height, 0.5 * inner)
    keep[0] = False
    return keep[comp]


def _connected_to(seed: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """``seed`` grown through the components of ``allowed`` that it touches."""
    count, comp = cv2.connectedComponents((allowed | seed).astype(np.uint8), connectivity=8)
    touched = np.zeros(count, bool)
    touched[np.unique(comp[seed])] = True
    touched[0] = False
    return touched[comp] | seed


def _background(crop: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """Median colour of the ring (white if the ring is empty, e.g. a whole-image box)."""
    if pixels.sum() < 8:
        return np.array([255.0, 255.0, 255.0], np.float32)
    return np.median(crop[pixels], axis=0).astype(np.float32)


def _is_white(crop: np.ndarray, pixels: np.ndarray, background: np.ndarray) -> bool:
    """Is the ring around the label white paper (so a white fill is exact)?"""
    if pixels.sum() < 8:
        return True
    white_share = (crop[pixels] >= WHITE_LEVEL).all(axis=1).mean()
    return bool((background >= WHITE_LEVEL).all() and white_share >= 0.85)


# --- anchors -----------------------------------------------------------------------


def _anchor_for(
    box: Box,
    index: int,
    segments: list[Segment],
    ends: np.ndarray,
    gaps: np.ndarray,
    nearest: np.ndarray,
    thin: np.ndarray,
    outside: np.ndarray,
) -> tuple[float, float] | None:
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
        if not _free_end(outside, near, u) or _passes_through(box, outside, near, u):
            continue
        if _curve_continues(k, near, u, ends):
            continue
        end = _follow(k, near, far, ends, thin, outside)
        found.append((gap, math.dist(near, end), end))
    if not found:
        return None
    # the leader is the line starting closest to the label; among lines starting
    # about as close (two leaders fanning out of one label) the longest
    closest = min(gap for gap, _, _ in found)
    _, _, end = max((f for f in found if f[0] <= closest + 3), key=lambda f: f[1])
    return (round(end[0], 1), round(end[1], 1))


def _follow(
    start: int, near: Point, far: Point, ends: np.ndarray, thin: np.ndarray, outside: np.ndarray
) -> Point:
    """Chain straight pieces from ``far`` onwards; return where the line's pixels stop."""
    used = {start}
    end = np.array(far)
    u = np.array(Segment(near, far).unit())
    for _ in range(12):
        step = _next_piece(end, u, ends, used, outside)
        if step is None:
            break
        k, end, u = step
        used.add(k)
    return walk(thin, (float(end[0]), float(end[1])), (float(u[0]), float(u[1])), max_steps=80)


def _next_piece(
    end: np.ndarray, u: np.ndarray, ends: np.ndarray, used: set[int], outside: np.ndarray
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
    ahead = (b - end) @ u
    rel = end[None, :] - a
    t = np.einsum("ij,ij->i", rel, unit)  # where ``end`` projects on each piece
    perp = np.abs(rel[:, 0] * unit[:, 1] - rel[:, 1] * unit[:, 0])
    free = np.ones(len(ends), bool)
    free[list(used)] = False
    collinear = free & (cos >= math.cos(math.radians(12))) & (perp <= 2.5)
    collinear &= (t >= -12) & (t <= length + 4) & (ahead > 3)
    if collinear.any():
        k = int(np.argmax(np.where(collinear, ahead, -np.inf)))
        return k, b[k], unit[k]
    gap = np.linalg.norm(a - end, axis=1)
    bend = free & (gap <= 4) & (cos >= math.cos(math.radians(70))) & (length >= 25)
    for k in np.argsort(-np.where(bend, length, 0))[: int(bend.sum())]:
        back = (-float(unit[k][0]), -float(unit[k][1]))
        # start a few px out: the incoming line's own width is right at the joint
        behind = _ahead((float(end[0]), float(end[1])), back, 3)
        if ink_fraction(outside, behind, back, 6, tolerance=2) >= 0.3:
            continue
        if _curve_continues(int(k), (float(end[0]), float(end[1])), tuple(unit[k]), ends):
            continue
        return int(k), b[k], unit[k]
    return None


def _points_at(box: Box, near: Point, u: Point, reach: float) -> bool:
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


def _passes_through(box: Box, outside: np.ndarray, near: Point, u: Point) -> bool:
    """Is this a line crossing the box rather than one starting at it?"""
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
    exit_ = _ahead(near, back, float(steps[last]))
    # a wide tolerance: a curve of the drawing clipping the box corner bends away
    # from the straight ray but still continues right there
    return ink_fraction(outside, exit_, back, 8, tolerance=2) >= 0.5


# --- small helpers -----------------------------------------------------------------


def _check_image(rgb: np.ndarray) -> None:
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError("expected an H×W×3 uint8 RGB array")
    if rgb.dtype != np.uint8:
        raise ValueError(f"expected an H×W×3 uint8 RGB array, got dtype {rgb.dtype}")


def _clamp(box: Sequence[float], shape: tuple[int, ...]) -> Box | None:
    """Integer box clipped to the image; None when nothing of it is left."""
    if len(box) != 4:
        raise ValueError(f"a box is (x0, y0, x1, y1), got {box!r}")
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(shape[1], math.ceil(box[2])), min(shape[0], math.ceil(box[3]))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _label_mask(shape: tuple[int, ...], boxes: list[Box]) -> np.ndarray:
    mask = np.zeros(shape[:2], bool)
    for x0, y0, x1, y1 in boxes:
        mask[y0:y1, x0:x1] = True
    return mask


def _regions(labels: np.ndarray, boxes: list[Box]) -> list[tuple[np.ndarray, list[Box]]]:
    """Groups of overlapping or touching boxes, each with its pixel mask."""
    _, comp = cv2.connectedComponents(labels.astype(np.uint8), connectivity=8)
    groups: dict[int, list[Box]] = {}
    for box in boxes:
        groups.setdefault(int(comp[box[1], box[0]]), []).append(box)
    return [(comp == k, members) for k, members in groups.items()]


def _rect_distance(points: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Euclidean distance from points (..., 2) to rectangles (..., 4), broadcast."""
    dx = np.maximum(np.maximum(rects[..., 0] - points[..., 0], 0), points[..., 0] - rects[..., 2])
    dy = np.maximum(np.maximum(rects[..., 1] - points[..., 1], 0), points[..., 1] - rects[..., 3])
    return np.hypot(dx, dy)


def _sample(image: np.ndarray, point: Point) -> float:
    """Value of ``image`` at the pixel nearest to ``point`` (clamped to the image)."""
    x = min(max(round(point[0]), 0), image.shape[1] - 1)
    y = min(max(round(point[1]), 0), image.shape[0] - 1)
    return float(image[y, x])


def _ahead(point: Point, u: Point, distance: float) -> Point:
    return (point[0] + u[0] * distance, point[1] + u[1] * distance)


def _first_inside(inside: np.ndarray, start: Point, u: Point, limit: float) -> Point | None:
    for s in np.arange(0.0, limit + 0.5, 0.5):
        point = _ahead(start, u, float(s))
        if _sample(inside, point):
            return point
    return None


def _last_inside(inside: np.ndarray, entry: Point, u: Point) -> Point:
    """Last point of the ray from ``entry`` still inside the region."""
    last = entry
    limit = inside.shape[0] + inside.shape[1]
    for s in np.arange(0.5, limit, 0.5):
        point = _ahead(entry, u, float(s))
        x, y = round(point[0]), round(point[1])
        if not (0 <= x < inside.shape[1] and 0 <= y < inside.shape[0]) or not inside[y, x]:
            break
        last = point
    return last
