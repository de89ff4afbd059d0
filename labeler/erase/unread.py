"""Labels the first OCR pass did not detect, found at the leader lines that end at no text.

On a figure pasted small the detector sometimes returns no box at all for a printed label
("Carbohydrate" on the cell membrane pasted 180 pt wide), so the label is neither keyed nor
erased. Its leader is still there in the pixels: a line whose label end is free, on paper and
at no text box (``leaders.orphan_ends``). Most such ends belong to the drawing, so an end only
counts when a row of glyph-sized ink lies beside it, on neutral paper, outside every box
already read (:func:`text_row`). Only those rows are read again: the row with a few line heights
round it, enlarged 2× with Lanczos and centred on a white square (rapidocr scales an image's
shorter side up to 736 px, so a strip would cost as much as the whole figure), detected with
``ocr.SMALL_TEXT``. A read is kept only as a first-pass line would be (``label_text``,
upright, confident), over the row it was cut for and clear of every box read before.

A figure with no orphaned leader (every OpenStax figure the benches use) pays only the
row test at each free end; the line detector run is shared with the leader search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from labeler.erase.ocr import SMALL_TEXT, OcrBox, read_text
from labeler.erase.raster_path import Hit, label_text
from labeler.erase.rotated import is_tilted
from labeler.pdf.geometry import PixelBox, Point

#: × line height: how far either side of a leader's end its label's glyphs are looked for.
ROW_REACH = 6.0
#: Grey level and colourfulness (max - min channel) below which a pixel is ink of a label.
INK_GRAY, INK_CHROMA = 170, 80
#: Colourfulness from which a pixel is a drawing's fill, not paper.
FILL_CHROMA = 60
#: The least glyphs in a row, and its least width (× line height): "rb" and "ly" merge.
MIN_GLYPHS, MIN_ROW = 3, 2.0
#: Share of a row's box that may be fill or non-glyph ink: a label here sits on paper.
MAX_FILL = 0.1
#: × line height round a row: the window that is read ("a few line heights" tall).
MARGIN = 1.2
#: Share of the smaller box two reads may share and still be different lines.
MAX_SHARED = 0.2


def missed_hits(rgb: np.ndarray, ends: Sequence[Point], taken: Sequence[PixelBox]) -> list[Hit]:
    """Lines read at the rows of glyphs beside ``ends`` that no box in ``taken`` covers."""
    if not ends or not taken:
        return []
    height = float(np.median([b[3] - b[1] for b in taken]))
    rows: list[PixelBox] = []
    for end in ends:
        row = text_row(rgb, taken, end, height)
        if row is not None:
            rows = _merged(rows, row)
    found: list[Hit] = []
    for row in rows:
        for hit in _read_row(rgb, row, height):
            if all(_shared(hit[1], b) <= MAX_SHARED for b in [*taken, *(h[1] for h in found)]):
                found.append(hit)
    return found


def text_row(
    rgb: np.ndarray, taken: Sequence[PixelBox], end: Point, height: float
) -> PixelBox | None:
    """The box of the longest row of glyphs within a line height of ``end``, if any.

    Glyphs are neutral dark components outside the boxes ``taken`` (grown by 2 px) between
    a quarter and one line height tall and at most 1.5 wide; a row is at least
    ``MIN_GLYPHS`` of them on one baseline (bottoms within a quarter line height), each
    within 0.7 line heights of the next, ``MIN_ROW`` line heights wide, on paper
    (``MAX_FILL``). Only the pixels round ``end`` are looked at: most ends have no row.
    """
    x, y = end
    x0, y0 = max(int(x - ROW_REACH * height), 0), max(int(y - 1.5 * height), 0)
    x1 = min(int(x + ROW_REACH * height) + 1, rgb.shape[1])
    y1 = min(int(y + 1.5 * height) + 1, rgb.shape[0])
    crop = np.ascontiguousarray(rgb[y0:y1, x0:x1])
    if crop.size == 0:
        return None
    gray = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)
    red, green, blue = cv2.split(crop)  # OpenCV's per-pixel max / min: numpy's take 10× longer
    chroma = cv2.subtract(cv2.max(cv2.max(red, green), blue), cv2.min(cv2.min(red, green), blue))
    ink = (gray < INK_GRAY) & (chroma < INK_CHROMA)
    for bx0, by0, bx1, by1 in taken:
        ink[
            max(by0 - 2 - y0, 0) : max(by1 + 2 - y0, 0), max(bx0 - 2 - x0, 0) : max(bx1 + 2 - x0, 0)
        ] = False
    _, comp, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    glyphs = [
        (int(left) + x0, int(top) + y0, int(left + w) + x0, int(top + h) + y0, k)
        for k, (left, top, w, h, area) in enumerate(stats[1:, :5].tolist(), start=1)
        if 0.25 * height <= h <= height and w <= 1.5 * height and area >= 3
    ]
    best: tuple[int, PixelBox] | None = None
    for chain in _chains(glyphs, height):
        box = (
            min(g[0] for g in chain),
            min(g[1] for g in chain),
            max(g[2] for g in chain),
            max(g[3] for g in chain),
        )
        if box[2] - box[0] < MIN_ROW * height or _distance(box, end) > height:
            continue
        if best is None or len(chain) > best[0]:
            best = (len(chain), box)
    if best is None:
        return None
    box = best[1]
    glyph_ink = np.isin(comp, [g[4] for g in glyphs])
    row = (slice(box[1] - y0, box[3] - y0), slice(box[0] - x0, box[2] - x0))
    fill = (chroma[row] >= FILL_CHROMA) | (ink[row] & ~glyph_ink[row])
    return box if fill.mean() <= MAX_FILL else None


def _chains(
    glyphs: list[tuple[int, int, int, int, int]], height: float
) -> list[list[tuple[int, int, int, int, int]]]:
    """Runs of glyphs on one baseline, each close to the next along it."""
    chains = []
    for seed in glyphs:
        line = sorted(g for g in glyphs if abs(g[3] - seed[3]) <= 0.25 * height)
        run = [line[0]]
        for glyph in line[1:]:
            if glyph[0] - max(g[2] for g in run) <= 0.7 * height:
                run.append(glyph)
            else:
                chains.append(run)
                run = [glyph]
        chains.append(run)
    return [c for c in chains if len(c) >= MIN_GLYPHS]


def _read_row(rgb: np.ndarray, row: PixelBox, height: float) -> list[Hit]:
    """OCR of the window round ``row``: the upright label lines read over the row."""
    pad = round(MARGIN * height)
    x0, y0 = max(row[0] - pad, 0), max(row[1] - pad, 0)
    x1, y1 = min(row[2] + pad, rgb.shape[1]), min(row[3] + pad, rgb.shape[0])
    window = cv2.resize(
        np.ascontiguousarray(rgb[y0:y1, x0:x1]),
        (2 * (x1 - x0), 2 * (y1 - y0)),
        interpolation=cv2.INTER_LANCZOS4,
    )
    side = max(window.shape[:2])
    square = np.full((side, side, 3), 255, np.uint8)
    top, left = (side - window.shape[0]) // 2, (side - window.shape[1]) // 2
    square[top : top + window.shape[0], left : left + window.shape[1]] = window
    hits = []
    for box in read_text(square, detection=SMALL_TEXT):
        text = label_text(box)
        if text is None or is_tilted(box):
            continue
        placed = _placed(box, (x0, y0), (left, top))
        if _shared(placed, row) > 0:
            hits.append((text, placed))
    return hits


def _placed(box: OcrBox, origin: tuple[int, int], offset: tuple[int, int]) -> PixelBox:
    """A box read in the enlarged, centred window, in the figure's pixels."""
    bx0, by0, bx1, by1 = box.bbox
    ox, oy = origin
    return (
        ox + math.floor((bx0 - offset[0]) / 2),
        oy + math.floor((by0 - offset[1]) / 2),
        ox + math.ceil((bx1 - offset[0]) / 2),
        oy + math.ceil((by1 - offset[1]) / 2),
    )


def _merged(rows: list[PixelBox], row: PixelBox) -> list[PixelBox]:
    """``rows`` with ``row`` added, joined with every row it overlaps (one read each)."""
    for other in [r for r in rows if _shared(r, row) > 0]:
        rows.remove(other)
        row = (
            min(row[0], other[0]),
            min(row[1], other[1]),
            max(row[2], other[2]),
            max(row[3], other[3]),
        )
    return [*rows, row]


def _shared(a: PixelBox, b: PixelBox) -> float:
    """The share of the smaller box's area that lies in both."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(smaller, 1)


def _distance(box: PixelBox, point: Point) -> float:
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)
