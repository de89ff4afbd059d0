"""Labels written at an angle (engravings such as Gray's plates): OCR of turned copies.

rapidocr's detector returns every text line as a quadrilateral, and its recogniser reads a
line straightened out of that quad; near-vertical lines it turns a quarter itself. Labels
engraved at 30-60° over hatching, though, are mostly missed or read in pieces by the
upright pass. So when the upright pass shows tilted text of label size, the figure is read
again turned by ±30° and ±60°, every read is mapped back onto the figure, and the best read
of each place is kept (the longest confident one: "OBLIQUECORD" beats "BLIQUE" + "CORD").
Turning by ±90° found nothing on Gray's elbow plate that these four passes missed, because
of the recogniser's own quarter turn.

The extra passes cost four more OCR runs, so they run only on that evidence, and only over
windows round the tilted lines seen (``tilted_regions``); figures with upright labels (the
OpenStax ones: their only tilted reads are textures, far taller than a label line) pay
nothing (``bench/raster.py``).

A tilted label is erased inside its own quad, grown by a pixel or two: its hull, an
axis-aligned box, would also wipe the hatching around a label at 45°. Inside the quad only
ink is painted over, with the paper colour found there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from labeler.erase.ocr import DEFAULT_DETECTION, MIN_CONFIDENCE, Detection, OcrBox, read_text
from labeler.pdf.geometry import PixelBox

Quad = tuple[tuple[float, float], ...]

#: Degrees: a line whose baseline is tilted more than this is erased inside its quad.
TILT = 12.0
#: The turns (degrees, counter-clockwise) of the extra passes.
ANGLES = (30.0, -30.0, 60.0, -60.0)
#: What the engine itself keeps (rapidocr's ``text_score``): low reads still show where text is.
HINT_CONFIDENCE = 0.5
#: × the median height of the upright lines read: a tilted "line" taller than this is texture.
#: The animal cell's organelles, read as "NHUD" at 20°, are 2.6 times a label's height at every
#: scale tried; the detector boxes a real tilted label loosely, up to 1.7 times (measured).
MAX_HINT_HEIGHT = 2.2
#: A tilted read of fewer letters is no evidence: two dots of a texture read along a
#: diagonal ("00" over the animal cell's ribosomes, placed large).
MIN_HINT_LETTERS = 3
#: × a hint's line height: the least a turned pass's window reaches beyond the hint.
REGION_HEIGHTS = 3.0
#: Pixels: a turned pass's window is at least this wide and tall, so the detector sees it at the
#: scale it sees the whole figure (rapidocr enlarges an image narrower than its
#: ``Det.limit_side_len``, 736, to that size, and boxes a label differently there).
MIN_WINDOW = 736
#: Two reads are of one place when they share this much of the smaller quad's area.
SAME_PLACE = 0.6
#: Pixels the erased area reaches beyond the quad (anti-aliased glyph edges).
PAD = 2
#: Share of the way from the outer rows' ink to the densest row's: rows above it are text.
TEXT_ROWS = 0.3
#: Grey levels below the paper inside a quad that count as ink.
INK_DEPTH = 60


def read_lines(rgb: np.ndarray, detection: Detection = DEFAULT_DETECTION) -> list[OcrBox]:
    """Every text line of ``rgb`` read at the angle it is written, top-to-bottom.

    The upright pass alone, unless it shows tilted lines of label size (see the module
    docstring); then the turned passes too, de-duplicated against it. Every pass detects
    with ``detection``.
    """
    lines = read_text(rgb, min_confidence=HINT_CONFIDENCE, detection=detection)
    confident = [b for b in lines if b.confidence >= MIN_CONFIDENCE]
    if not needs_turned_passes(lines):
        return confident
    candidates = list(confident)
    for x0, y0, x1, y1 in tilted_regions(lines, rgb.shape):
        window = np.ascontiguousarray(rgb[y0:y1, x0:x1])
        for angle in ANGLES:
            turned, back = _turn(window, angle)
            back[:, 2] += (x0, y0)
            for box in read_text(turned, detection=detection):
                candidates.append(_tightened(_mapped(box, back, rgb.shape), lines, rgb.shape))
    return best_reads(candidates)


def tilted_regions(lines: Sequence[OcrBox], shape: tuple[int, ...]) -> list[PixelBox]:
    """The parts of the figure the turned passes read: round every tilted line of label size.

    Each tilted hint's hull is grown by the hint's own length on every side (the upright pass
    often sees only part of a tilted label), and windows that overlap are merged, so a label
    is not cut between two windows more than it must be.
    """
    windows = []
    for box in _hints(lines):
        reach = round(max(quad_length(box.quad), REGION_HEIGHTS * quad_height(box.quad)))
        windows.append(_at_least(quad_hull(box.quad, shape, pad=reach), MIN_WINDOW, shape))
    merged: list[PixelBox] = []
    for window in windows:
        while (
            i := next((k for k, w in enumerate(merged) if _overlap(w, window)), None)
        ) is not None:
            other = merged.pop(i)
            window = (
                min(window[0], other[0]),
                min(window[1], other[1]),
                max(window[2], other[2]),
                max(window[3], other[3]),
            )
        merged.append(window)
    return merged


def _tightened(box: OcrBox, upright: Sequence[OcrBox], shape: tuple[int, ...]) -> OcrBox:
    """``box`` (read turned) with the quad the upright pass detected at its place, if any.

    The detector boxes a line tilted a little from the turned axes loosely (half again its
    height on a 10° tilt), while the upright pass, which misread the line, boxed it tightly
    at its true angle; erasing the loose quad would also wipe the hatching along the label.
    """
    import cv2

    seen = [b.quad for b in upright if len(b.quad) == 4 and _same_place(b.quad, box.quad)]
    if not seen:
        return box
    points = np.asarray([p for quad in seen for p in quad], np.float32)
    quad = _reading_order(cv2.boxPoints(cv2.minAreaRect(points)), box.angle)
    if quad is None:
        return box
    return OcrBox(
        text=box.text,
        bbox=quad_hull(quad, shape),
        confidence=box.confidence,
        angle=box.angle,
        quad=quad,
    )


def _reading_order(corners: np.ndarray, angle: float) -> Quad | None:
    """A rectangle's corners as TL, TR, BR, BL for text running at ``angle`` (None if the
    rectangle is turned too far from that direction to tell its corners apart)."""
    along = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    down = np.array([-along[1], along[0]])
    centre = corners.mean(axis=0)
    slots: dict[tuple[bool, bool], tuple[float, float]] = {}
    for corner in corners:
        offset = corner - centre
        slots[(bool(offset @ along > 0), bool(offset @ down > 0))] = (
            float(corner[0]),
            float(corner[1]),
        )
    order = [(False, False), (True, False), (True, True), (False, True)]
    if len(slots) != 4:
        return None
    return tuple(slots[k] for k in order)


def _overlap(a: PixelBox, b: PixelBox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _at_least(box: PixelBox, side: int, shape: tuple[int, ...]) -> PixelBox:
    """``box`` widened about its centre to ``side`` pixels each way, as far as the image goes."""
    x0, y0, x1, y1 = box
    grow_x, grow_y = max(side - (x1 - x0), 0), max(side - (y1 - y0), 0)
    x0, x1 = max(x0 - grow_x // 2, 0), min(x1 + grow_x - grow_x // 2, shape[1])
    y0, y1 = max(y0 - grow_y // 2, 0), min(y1 + grow_y - grow_y // 2, shape[0])
    # against the image's edge, grow the other way
    x0, x1 = max(min(x0, x1 - side), 0), min(max(x1, x0 + side), shape[1])
    y0, y1 = max(min(y0, y1 - side), 0), min(max(y1, y0 + side), shape[0])
    return (x0, y0, x1, y1)


def needs_turned_passes(lines: Sequence[OcrBox]) -> bool:
    """Whether the upright pass found tilted text about as tall as the labels it read.

    ``lines`` are all the engine's reads, unsure ones included: a tilted line read badly
    upright is exactly the evidence.
    """
    return bool(_hints(lines))


def _hints(lines: Sequence[OcrBox]) -> list[OcrBox]:
    """The tilted lines about as tall as the labels the upright pass read."""
    upright = [quad_height(b.quad) for b in lines if not is_tilted(b)]
    heights = upright or [quad_height(b.quad) for b in lines]
    if not heights:
        return []
    limit = MAX_HINT_HEIGHT * float(np.median(heights))
    return [
        b
        for b in lines
        if is_tilted(b) and _letters(b.text) >= MIN_HINT_LETTERS and quad_height(b.quad) <= limit
    ]


def is_tilted(box: OcrBox) -> bool:
    return TILT <= abs(box.angle) <= 180 - TILT


def quad_length(quad: Quad) -> float:
    """The mean length of a quad's two long sides (its line's length)."""
    if len(quad) != 4:
        return 0.0
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad
    return (math.hypot(bx - ax, by - ay) + math.hypot(cx - dx, cy - dy)) / 2


def quad_height(quad: Quad) -> float:
    """The mean length of a quad's two short sides (its line height)."""
    if len(quad) != 4:
        return 0.0
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad
    return (math.hypot(dx - ax, dy - ay) + math.hypot(cx - bx, cy - by)) / 2


def best_reads(candidates: Sequence[OcrBox]) -> list[OcrBox]:
    """One read per place: the most letters read with confidence, earlier ones on a tie.

    The upright reads come first in ``candidates``, so an upright label read as well turned
    keeps its upright read.
    """
    order = sorted(
        range(len(candidates)),
        key=lambda i: (-_letters(candidates[i].text) * candidates[i].confidence, i),
    )
    kept: list[OcrBox] = []
    for index in order:
        box = candidates[index]
        if len(box.quad) == 4 and not any(_same_place(box.quad, k.quad) for k in kept):
            kept.append(box)
    kept.sort(key=lambda b: (b.bbox[1], b.bbox[0]))
    return kept


def erase_quads(rgb: np.ndarray, quads: Sequence[Quad]) -> np.ndarray:
    """A copy of ``rgb`` with the ink inside each quad (grown by ``PAD``) painted as paper.

    Pixels outside the grown quads are never changed.
    """
    import cv2

    out = rgb.copy()
    kernel = np.ones((2 * PAD + 1, 2 * PAD + 1), np.uint8)
    for loose in quads:
        quad = fitted_to_ink(rgb, loose)
        x0, y0, x1, y1 = quad_hull(quad, rgb.shape, pad=PAD + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
        points = np.round(np.asarray(quad) - (x0, y0)).astype(np.int32)
        cv2.fillConvexPoly(inside, points, 1)
        inside = cv2.dilate(inside, kernel).astype(bool)
        window = out[y0:y1, x0:x1]
        grey = cv2.cvtColor(np.ascontiguousarray(window), cv2.COLOR_RGB2GRAY)
        values = grey[inside]
        if values.size == 0:
            continue
        paper_level = float(np.percentile(values, 90))
        ink = inside & (grey < paper_level - INK_DEPTH)
        # the glyphs' anti-aliased edges go with them, but never past the grown quad
        ink = cv2.dilate(ink.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & inside
        paper = inside & ~ink
        colour = np.median(window[paper], axis=0) if paper.any() else np.full(3, 255.0)
        window[ink] = np.round(colour).astype(np.uint8)
    return out


def fitted_to_ink(rgb: np.ndarray, quad: Quad) -> Quad:
    """``quad`` narrowed, across its lines, to the rows where the text's ink is.

    The detector's quad of a tilted line is up to twice the line's height; the extra rows
    hold only the drawing around the label (hatching), which changes between ink and paper
    about as often everywhere, while the text rows change far more often. Rows clearly above
    the quad's outer rows are the text; the quad keeps those, plus a small margin.
    """
    import cv2

    if len(quad) != 4:
        return quad
    top_left, top_right, bottom_right, bottom_left = (np.asarray(p, np.float32) for p in quad)
    width = max(round(float(np.linalg.norm(top_right - top_left))), 1)
    height = max(round(quad_height(quad)), 1)
    if height < 8:
        return quad
    source = np.stack([top_left, top_right, bottom_right, bottom_left])
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    strip = cv2.warpPerspective(
        np.ascontiguousarray(rgb),
        cv2.getPerspectiveTransform(source, target),
        (width, height),
        borderValue=(255, 255, 255),
    )
    grey = cv2.cvtColor(strip, cv2.COLOR_RGB2GRAY)
    ink = grey < float(np.percentile(grey, 90)) - INK_DEPTH
    # ink-to-paper changes along each row: letters make many, a rule or band edge parallel to
    # the text (a ligament's outline) few, however dark
    rows = np.abs(np.diff(ink.astype(np.int8), axis=1)).mean(axis=1)
    edge = max(1, height // 7)
    baseline = float(np.median(np.concatenate([rows[:edge], rows[-edge:]])))
    peak = float(rows.max())
    if peak - baseline < 0.02:
        return quad
    text_rows = np.flatnonzero(rows > baseline + TEXT_ROWS * (peak - baseline))
    margin = 0.08 * height + 1
    first = max(float(text_rows[0]) - margin, 0.0) / height
    last = min(float(text_rows[-1]) + 1 + margin, float(height)) / height
    left_edge, right_edge = bottom_left - top_left, bottom_right - top_right
    corners = (
        top_left + first * left_edge,
        top_right + first * right_edge,
        top_right + last * right_edge,
        top_left + last * left_edge,
    )
    return tuple((float(c[0]), float(c[1])) for c in corners)


def quad_hull(quad: Quad, shape: tuple[int, ...], pad: int = 0) -> PixelBox:
    """Integer pixel hull of ``quad`` grown by ``pad``, clamped to an image of ``shape``."""
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    return (
        max(math.floor(min(xs)) - pad, 0),
        max(math.floor(min(ys)) - pad, 0),
        min(math.ceil(max(xs)) + pad, shape[1]),
        min(math.ceil(max(ys)) + pad, shape[0]),
    )


def _letters(text: str) -> int:
    return sum(ch.isalnum() for ch in text)


def _same_place(a: Quad, b: Quad) -> bool:
    import cv2

    pa = np.asarray(a, np.float32)
    pb = np.asarray(b, np.float32)
    common, _ = cv2.intersectConvexConvex(pa, pb)
    smaller = min(abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb)))
    return smaller > 0 and common >= SAME_PLACE * smaller


def _turn(rgb: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """``rgb`` turned by ``angle`` degrees on a white canvas that holds all of it, and the
    2×3 matrix taking the turned image's pixels back to ``rgb``'s."""
    import cv2

    height, width = rgb.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    new_w, new_h = int(height * sin + width * cos + 0.5), int(height * cos + width * sin + 0.5)
    matrix[0, 2] += new_w / 2 - width / 2
    matrix[1, 2] += new_h / 2 - height / 2
    turned = cv2.warpAffine(
        rgb, matrix, (new_w, new_h), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255)
    )
    return turned, cv2.invertAffineTransform(matrix)


def _mapped(box: OcrBox, back: np.ndarray, shape: tuple[int, ...]) -> OcrBox:
    """``box`` read on a turned copy, moved back onto the figure."""
    points = np.asarray(box.quad, float)
    moved = points @ back[:, :2].T + back[:, 2]
    quad = tuple((float(x), float(y)) for x, y in moved)
    dx, dy = moved[1] - moved[0]
    return OcrBox(
        text=box.text,
        bbox=quad_hull(quad, shape),
        confidence=box.confidence,
        angle=round(math.degrees(math.atan2(dy, dx)), 1),
        quad=quad,
    )


#: The turns the residual reading uses: every angle a label may be written at, in 30° steps
#: (the recogniser's own quarter and half turns cover the rest).
EVERY_ANGLE = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0)


def read_every_angle(rgb: np.ndarray) -> list[OcrBox]:
    """Every confident read of ``rgb`` turned to each of ``EVERY_ANGLE``, mapped back.

    For checking that an erased figure has nothing left to read at any angle; unlike
    :func:`read_lines` it always runs all passes and keeps duplicate reads.
    """
    found: list[OcrBox] = []
    for angle in EVERY_ANGLE:
        if angle == 0.0:
            found.extend(read_text(rgb))
            continue
        turned, back = _turn(rgb, angle)
        found.extend(_mapped(b, back, rgb.shape) for b in read_text(turned))
    return found
