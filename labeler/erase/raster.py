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
4. The erased pixels are painted white when the ring is white, inpainted
   (``cv2.inpaint``) when the label sits on a flat or shaded colour, and filled with
   texture copied from beside the label when it sits on a texture
   (:mod:`labeler.erase.texture`), so no smooth word-shaped patch is left. A label on
   paper with a pale drawing behind it (filaments crossing the word) is on paper however
   crowded the ring is: the drawing's fill and outlines are kept, and the letters over
   them inpainted from them, so the drawing runs on across the box.

Only pixels inside the given boxes are ever changed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from labeler.erase.leaders import leader_ends, leader_segments, orphan_ends
from labeler.erase.lines import ahead, draw_band, thin_dark_mask
from labeler.erase.raster_crossings import Line, crossing_repairs, lines_into, protected_pixels
from labeler.erase.raster_paper import fill_over_drawing, pale_drawing_behind
from labeler.erase.raster_window import INK_DISTANCE, Window, past_region, window_around
from labeler.erase.texture import is_textured, texture_patch
from labeler.pdf.geometry import PixelBox

FILL_MODES = ("auto", "white", "inpaint")

#: Lower distance for the antialiased fringe around glyphs on coloured
#: backgrounds, erased only within two pixels of glyph ink.
FRINGE_DISTANCE = 10.0
#: A ring pixel is "white" when every channel is at least this bright.
WHITE_LEVEL = 235


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
        _erase_region(window_around(rgb, labels, thin, region, region_boxes), out, fill)
    return out


def erase_mask(rgb: np.ndarray, mask: np.ndarray, *, fill: str = "auto") -> np.ndarray:
    """Return a copy of ``rgb`` with every pixel of ``mask`` painted over as background.

    This is the curator's brush: nothing under the mask is protected (no line
    detection), only the fill is shared with :func:`erase_raster_labels`. Each
    connected patch of the mask is filled on its own: white when the ring of
    pixels around it is white paper, inpainted from that ring otherwise.
    """
    _check_image(rgb)
    if fill not in FILL_MODES:
        raise ValueError(f"fill must be one of {FILL_MODES}, got {fill!r}")
    if mask.shape != rgb.shape[:2]:
        raise ValueError(f"mask shape {mask.shape} does not match the image {rgb.shape[:2]}")
    out = rgb.copy()
    count, comp, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    ring_width = 4
    pad = ring_width + 4  # the ring plus room for the inpainting radius
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring_width + 1,) * 2)
    for k in range(1, count):
        x, y, w, h = stats[k, :4]
        y0, x0 = max(0, y - pad), max(0, x - pad)
        window = (
            slice(y0, min(rgb.shape[0], y + h + pad)),
            slice(x0, min(rgb.shape[1], x + w + pad)),
        )
        patch = comp[window] == k
        ring = cv2.dilate(patch.astype(np.uint8), kernel).astype(bool) & ~mask[window]
        white = fill == "white"
        if fill == "auto":
            white = _is_white(rgb[window], ring, _background(rgb[window], ring))
        _fill(out[window], patch, white=white, unknown=patch)
    return out


def find_raster_anchors(
    rgb: np.ndarray, boxes: Sequence[Sequence[float]]
) -> list[tuple[float, float] | None]:
    """For each box, the far end of the leader line that starts at it, else None.

    A leader starts a little way from its label (the box nearest to that end),
    points into the box, is a free end there (not a curve of the drawing passing
    by) and does not cross the box. It is followed across gaps and round clean
    bends to where its pixels stop (see :mod:`labeler.erase.leaders`). Of several
    leaders, the one starting closest to the label wins; of two starting equally
    close (a label with two leaders), the longer. Boxes may be whole multi-line
    labels or single lines; a box with nothing usable (off the image) gets None.
    """
    return find_raster_leaders(rgb, boxes, orphans=False)[0]


def find_raster_leaders(
    rgb: np.ndarray, boxes: Sequence[Sequence[float]], *, orphans: bool = True
) -> tuple[list[tuple[float, float] | None], list[tuple[float, float]]]:
    """:func:`find_raster_anchors`, plus (with ``orphans``) the free ends of leader-like
    lines at no box.

    Those ends (:func:`labeler.erase.leaders.orphan_ends`) are where a label the
    OCR did not detect may be; both come from one run of the line detector.
    """
    _check_image(rgb)
    clamped = [_clamp(b, rgb.shape) for b in boxes]
    clean = [b for b in clamped if b is not None]
    thin = thin_dark_mask(rgb)
    outside = thin & ~_label_mask(rgb.shape, clean)
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    segments = leader_segments(outside)
    found = iter(leader_ends(gray, thin, outside, clean, segments))
    anchors = [None if box is None else next(found) for box in clamped]
    return anchors, orphan_ends(outside, clean, segments) if orphans else []


# --- erasure -----------------------------------------------------------------------


def _erase_region(win: Window, out: np.ndarray, fill: str) -> None:
    """Erase the glyph ink of one region of touching boxes into ``out``."""
    lines = lines_into(win)
    clean_ring = win.ring & ~win.thin
    background = _background(win.rgb, clean_ring)
    distance = np.linalg.norm(win.rgb.astype(np.float32) - background, axis=2)
    ink = distance > INK_DISTANCE
    drawing, core = _drawing_and_text(win, ink, lines)
    protected = protected_pixels(win, lines, core)
    repair, colours = crossing_repairs(win.rgb, lines, protected, ~win.in_labels)
    protected &= ~repair

    glyph = ink & win.inside & ~drawing & ~protected
    behind = None
    if fill == "white" or (fill == "auto" and (background >= WHITE_LEVEL).all()):
        behind = pale_drawing_behind(win, ink, glyph, background)
    if fill == "auto":
        # paper crowded by a pale drawing is still paper: the drawing is kept, not inpainted
        white = behind is not None or _is_white(win.rgb, clean_ring, background)
        fill = "white" if white else "inpaint"
    erase = glyph | _fringe(glyph, distance, white=fill == "white")
    erase &= win.inside & ~protected & ~drawing & ~repair
    drawn = np.zeros_like(erase) if behind is None else erase & behind
    erase &= ~drawn
    target = out[win.slices]
    target[repair] = colours[repair]
    # on a texture the whole box is refilled, not just the glyphs: texture cut to the
    # glyphs' outlines would still spell the word
    hole = win.inside & ~protected & ~drawing & ~repair
    patch = None
    if fill != "white" and is_textured(win.rgb, win.ring, background):
        patch = texture_patch(win.image, win.labels, hole, win.origin, clean_ring)
    if patch is not None:
        target[hole] = patch
    elif drawn.any():
        fill_over_drawing(target, erase, erase | protected, drawn)
    else:
        # inpaint the lines' pixels too, so their dark does not bleed into the fill
        _fill(target, erase, white=fill == "white", unknown=erase | protected)


def _fill(target: np.ndarray, erase: np.ndarray, *, white: bool, unknown: np.ndarray) -> None:
    """Paint ``erase`` pixels of ``target`` (in place) white, or inpaint them.

    Inpainting treats ``unknown`` (a superset of ``erase``) as missing, so dark
    pixels the caller keeps (a protected line) do not bleed into the fill.
    """
    if white:
        target[erase] = 255
    elif erase.any():
        painted = cv2.inpaint(
            np.ascontiguousarray(target), unknown.astype(np.uint8) * 255, 3, cv2.INPAINT_TELEA
        )
        target[erase] = painted[erase]


def _drawing_and_text(
    win: Window, ink: np.ndarray, lines: list[Line]
) -> tuple[np.ndarray, np.ndarray]:
    """Ink that belongs to the drawing, and per box the rectangle holding its text.

    Bands along every line cut glyphs loose from the lines touching them; ink
    components that then still reach well outside the boxes are drawing, but only
    in a box's margin: the middle of a box is where its text is, and a label
    written over hatching touches the hatching, so there drawing ink goes too
    (only detected lines are kept through the text). The text rectangle of a box
    bounds the remaining ink inside it; leaders stop there.
    """
    full = np.zeros(win.inside.shape, np.uint8)
    for line in lines:
        end = ahead(line.exit, line.u, past_region(win.margin)) if line.through else line.exit
        draw_band(full, line.far, end, line.width / 2 + 1.5)
    banded = full.astype(bool)
    middle = _middles(win)
    height = min(b[3] - b[1] for b in win.boxes)
    drawing = _drawing_ink(ink & win.near & ~banded, win.inside, win.in_labels, height)
    drawing &= ~middle
    core = _text_cores(ink & win.inside & ~banded & ~drawing, win.boxes, win.origin)
    # the bands also cut drawing outlines that graze a box; give those pixels back
    drawing = _connected_to(drawing, ink & win.near & ~core & ~middle)
    return drawing, core


def _middles(win: Window) -> np.ndarray:
    """Each box without a margin of 15% of its height all round: surely text."""
    middle = np.zeros(win.inside.shape, bool)
    ox, oy = win.origin
    for x0, y0, x1, y1 in win.boxes:
        pad = max(1, round(0.15 * (y1 - y0)))
        middle[y0 - oy + pad : y1 - oy - pad, x0 - ox + pad : x1 - ox - pad] = True
    return middle


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


def _text_cores(glyphs: np.ndarray, boxes: list[PixelBox], origin: tuple[int, int]) -> np.ndarray:
    """Per box, the tight rectangle around its glyph ink (leaders stop there)."""
    core = np.zeros(glyphs.shape, bool)
    ox, oy = origin
    for bx0, by0, bx1, by1 in boxes:
        sub = glyphs[by0 - oy : by1 - oy, bx0 - ox : bx1 - ox]
        ys, xs = np.nonzero(sub)
        if len(xs) < 4:
            continue
        core[
            by0 - oy + ys.min() : by0 - oy + ys.max() + 1,
            bx0 - ox + xs.min() : bx0 - ox + xs.max() + 1,
        ] = True
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


# --- small helpers -----------------------------------------------------------------


def _check_image(rgb: np.ndarray) -> None:
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError("expected an H×W×3 uint8 RGB array")
    if rgb.dtype != np.uint8:
        raise ValueError(f"expected an H×W×3 uint8 RGB array, got dtype {rgb.dtype}")


def _clamp(box: Sequence[float], shape: tuple[int, ...]) -> PixelBox | None:
    """Integer box clipped to the image; None when nothing of it is left."""
    if len(box) != 4:
        raise ValueError(f"a box is (x0, y0, x1, y1), got {box!r}")
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(shape[1], math.ceil(box[2])), min(shape[0], math.ceil(box[3]))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _label_mask(shape: tuple[int, ...], boxes: list[PixelBox]) -> np.ndarray:
    mask = np.zeros(shape[:2], bool)
    for x0, y0, x1, y1 in boxes:
        mask[y0:y1, x0:x1] = True
    return mask


def _regions(labels: np.ndarray, boxes: list[PixelBox]) -> list[tuple[np.ndarray, list[PixelBox]]]:
    """Groups of overlapping or touching boxes, each with its pixel mask."""
    _, comp = cv2.connectedComponents(labels.astype(np.uint8), connectivity=8)
    groups: dict[int, list[PixelBox]] = {}
    for box in boxes:
        groups.setdefault(int(comp[box[1], box[0]]), []).append(box)
    return [(comp == k, members) for k, members in groups.items()]
