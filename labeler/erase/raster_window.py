"""One region of touching label boxes, cut out with the masks every erasure step needs.

Shared by the raster eraser's steps (``raster``, ``raster_crossings``, ``raster_paper``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from labeler.pdf.geometry import PixelBox

#: RGB distance from the background colour above which a pixel is ink (JPEG noise
#: around text stays below ~25; black text on white is ~440).
INK_DISTANCE = 60.0


@dataclass(frozen=True)
class Window:
    """The part of the image around one region, with the masks every step needs."""

    origin: tuple[int, int]  # x, y of the window in the image
    rgb: np.ndarray
    inside: np.ndarray  # the region (the boxes being erased)
    in_labels: np.ndarray  # any label box, this region's or a neighbour's
    thin: np.ndarray  # thin dark strokes
    near: np.ndarray  # within ``margin`` of the region
    margin: int  # ring width around the region where lines are looked for
    boxes: list[PixelBox]
    image: np.ndarray  # the whole image, where texture to fill a hole is copied from
    labels: np.ndarray  # every label box of the whole image (never copied)

    @property
    def ring(self) -> np.ndarray:
        return self.near & ~self.in_labels

    @property
    def slices(self) -> tuple[slice, slice]:
        height, width = self.inside.shape
        return slice(self.origin[1], self.origin[1] + height), slice(
            self.origin[0], self.origin[0] + width
        )


def window_around(
    rgb: np.ndarray, labels: np.ndarray, thin: np.ndarray, region: np.ndarray, boxes: list[PixelBox]
) -> Window:
    """Cut the window around ``region``: the ring plus room to check lines beyond it."""
    margin = int(np.clip(round(0.6 * float(np.median([b[3] - b[1] for b in boxes]))), 8, 30))
    ys, xs = np.nonzero(region)
    pad = margin + past_region(margin) + 2
    x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
    x1, y1 = min(rgb.shape[1], xs.max() + pad + 1), min(rgb.shape[0], ys.max() + pad + 1)
    inside = region[y0:y1, x0:x1]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * margin + 1, 2 * margin + 1))
    return Window(
        origin=(int(x0), int(y0)),
        rgb=rgb[y0:y1, x0:x1],
        inside=inside,
        in_labels=labels[y0:y1, x0:x1],
        thin=thin[y0:y1, x0:x1],
        near=cv2.dilate(inside.astype(np.uint8), kernel).astype(bool),
        margin=margin,
        boxes=boxes,
        image=rgb,
        labels=labels,
    )


def past_region(margin: int) -> int:
    """How far past a region a line must go on to count as passing through it."""
    return max(6, margin // 2)
