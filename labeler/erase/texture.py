"""Fill an erased label on a textured background with the texture, not a smooth blob.

Inpainting (``cv2.inpaint``) continues the colours at the edge of the hole inwards: on a flat
or gently shaded fill that is exact, but on a texture (spongy bone, a speckled cytoplasm,
hatching) it leaves a smooth, word-shaped patch that shows where the label was, and a model
can read the word's shape. Here the hole is filled by copying the same pixels from a strip of
the figure next to it (above, below, left or right of the label, whichever is free of labels
and looks most like the texture around the hole), the way a curator would clone-stamp it.
Where no neighbouring strip matches, the caller inpaints as before.
"""

from __future__ import annotations

import cv2
import numpy as np

#: A speck of texture differs from the background colour by more than this (per channel) ...
SPECK_CONTRAST = 25.0
#: ... and covers at most this many pixels; a textured ring has one per 1,000 of its pixels.
SPECK_AREA = 400
SPECKS_PER_AREA = 1e-3
#: A source strip may differ from the ring's mean colour by at most this (per channel) ...
MATCH_COLOUR = 24.0
#: ... and its fine detail may be at most this many times the ring's (no line or edge copied).
MATCH_DETAIL = 1.8


def detail(rgb: np.ndarray) -> np.ndarray:
    """Fine detail of an image: its grey levels minus a 7×7 box blur of them."""
    gray = rgb.astype(np.float32).mean(axis=2)
    return gray - cv2.blur(gray, (7, 7))


def is_textured(crop: np.ndarray, ring: np.ndarray, background: np.ndarray) -> bool:
    """Does the ring of background around a label carry texture (not a flat or shaded fill)?

    Texture is many small specks off the background colour. The outlines and lines of a
    drawing crossing the ring are a few long pieces instead, and a fill with a line through it
    is inpainted: copying a strip there could copy the line into the hole.
    """
    if ring.sum() < 32:
        return False
    off = (np.abs(crop.astype(np.float32) - background).max(axis=2) > SPECK_CONTRAST) & ring
    _, _, stats, _ = cv2.connectedComponentsWithStats(off.astype(np.uint8), connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    specks = int(((areas >= 4) & (areas <= SPECK_AREA)).sum())
    return specks >= SPECKS_PER_AREA * ring.sum() and areas.sum() >= 0.05 * ring.sum()


def texture_patch(
    image: np.ndarray,
    forbidden: np.ndarray,
    hole: np.ndarray,
    origin: tuple[int, int],
    ring: np.ndarray,
) -> np.ndarray | None:
    """Colours for the ``hole`` pixels copied from a free strip of ``image`` beside the hole.

    ``hole`` and ``ring`` are masks of a window of ``image`` whose top-left corner is at
    ``origin``; ``forbidden`` (image-sized) marks pixels that must never be copied (labels).
    Returns one RGB row per hole pixel (in ``np.nonzero`` order), or None when no strip next to
    the hole matches the ring's colour and detail.
    """
    ys, xs = np.nonzero(hole)
    if len(ys) == 0:
        return None
    ox, oy = origin
    crop = image[oy : oy + hole.shape[0], ox : ox + hole.shape[1]]
    want_colour = np.median(crop[ring], axis=0)
    want_detail = float(detail(crop)[ring].std())
    y0, x0 = int(ys.min()) + oy, int(xs.min()) + ox
    y1, x1 = int(ys.max()) + oy + 1, int(xs.max()) + ox + 1
    pad = 4  # room for the blur in ``detail``
    height, width = y1 - y0 + 2, x1 - x0 + 2
    best: tuple[float, np.ndarray] | None = None
    for dx, dy in ((0, -height), (0, height), (-width, 0), (width, 0), (0, -2 * height)):
        if y0 + dy - pad < 0 or x0 + dx - pad < 0:
            continue
        if y1 + dy + pad > image.shape[0] or x1 + dx + pad > image.shape[1]:
            continue
        sy, sx = ys + oy + dy, xs + ox + dx
        if forbidden[sy, sx].any():
            continue
        source = image[sy, sx]
        colour = float(np.abs(np.median(source, axis=0) - want_colour).max())
        around = image[y0 + dy - pad : y1 + dy + pad, x0 + dx - pad : x1 + dx + pad]
        spread = float(detail(around)[sy - (y0 + dy - pad), sx - (x0 + dx - pad)].std())
        if colour > MATCH_COLOUR or spread > MATCH_DETAIL * want_detail + 2:
            continue
        if best is None or colour < best[0]:
            best = (colour, source)
    return None if best is None else best[1].copy()
