"""The OCR's copy of a clip whose raster images are drawn much larger than their pixels.

MuPDF draws an image it enlarges with nearest-neighbour sampling: a 313-pixel engraving
(Gray's elbow plate) rendered at 200 dpi shows every source pixel as a 2.8-pixel block, and
its 8-pixel italic labels reach the detector as staircases. The detector then cuts lines
into pieces and the recogniser reads "OBLIQUEGORD". Resampling those images smoothly
(each one's part of the render shrunk back to its own pixel grid, then enlarged again with
Lanczos) gives the OCR the letters a viewer shows, at the render's size, so every box read
on it is already in the render's pixels. Measured on the plate (decision 0004): 10 → 14 of
15 labels found. Enlarging further instead (the render ×2, or the source ×6) found fewer
(8 and 11): the letters outgrow the detector's working size.

Only the OCR's copy is resampled; the question and answer images stay MuPDF's renders.
Images drawn at less than :data:`MIN_MAGNIFICATION` of their pixels (every OpenStax
placement the tests and ``bench/raster.py`` use, at most 1.5) are left exactly as rendered,
so their reads do not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labeler.pdf.geometry import PixelBox

#: Render pixels per source pixel from which an image's blocks are smoothed for OCR.
MIN_MAGNIFICATION = 2.0


@dataclass(frozen=True)
class Enlarged:
    """Where a raster image is drawn in the rendered clip and how many times enlarged."""

    box: PixelBox
    magnification: float


def enlarged_images(
    infos: Sequence[dict], zoom: float, origin: tuple[int, int], shape: tuple[int, ...]
) -> list[Enlarged]:
    """The images (pymupdf ``get_image_info`` entries) the render enlarges enough to smooth.

    A turned or sheared image is left alone: its blocks do not lie on the render's grid.
    """
    found = []
    for info in infos:
        a, b, c, d = (float(v) for v in info["transform"][:4])
        width, height = int(info["width"]), int(info["height"])
        if abs(b) > 1e-6 or abs(c) > 1e-6 or width <= 0 or height <= 0:
            continue
        magnification = min(abs(a) / width, abs(d) / height) * zoom
        if magnification < MIN_MAGNIFICATION:
            continue
        x0, y0, x1, y1 = (float(v) * zoom for v in info["bbox"])
        box = (
            max(round(x0) - origin[0], 0),
            max(round(y0) - origin[1], 0),
            min(round(x1) - origin[0], shape[1]),
            min(round(y1) - origin[1], shape[0]),
        )
        if box[2] - box[0] >= 2 * magnification and box[3] - box[1] >= 2 * magnification:
            found.append(Enlarged(box, magnification))
    return found


def smoothed(rgb: np.ndarray, images: Sequence[Enlarged]) -> np.ndarray:
    """``rgb`` with each enlarged image's part resampled smoothly (a copy; ``rgb`` if none)."""
    if not images:
        return rgb
    import cv2

    out = rgb.copy()
    for image in images:
        x0, y0, x1, y1 = image.box
        window = np.ascontiguousarray(rgb[y0:y1, x0:x1])
        size = (
            max(round((x1 - x0) / image.magnification), 1),
            max(round((y1 - y0) / image.magnification), 1),
        )
        source = cv2.resize(window, size, interpolation=cv2.INTER_AREA)
        out[y0:y1, x0:x1] = cv2.resize(source, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LANCZOS4)
    return out
