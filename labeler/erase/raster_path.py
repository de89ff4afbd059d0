"""The raster side of erasure, seen from ``erase_figure``: pixels ↔ points and OCR fragments.

The OCR engine and the line-protecting eraser live in ``labeler.erase.ocr`` and
``labeler.erase.raster``; this module only converts between the rendered
clip's pixels and page points and turns OCR boxes into harvest fragments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pymupdf

from labeler.harvest.fragments import Fragment, merge_on_lines
from labeler.pdf.content import Box

PixelBox = tuple[int, int, int, int]


@dataclass(frozen=True)
class Raster:
    """A rendered clip: RGB pixels plus the mapping back to page points."""

    rgb: np.ndarray
    origin: tuple[int, int]  # pixmap x, y in zoomed page space
    zoom: float

    @classmethod
    def from_pixmap(cls, pix: pymupdf.Pixmap, dpi: int) -> Raster:
        rgb = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
        return cls(rgb[:, :, :3], (pix.x, pix.y), dpi / 72.0)

    def to_points(self, box: Sequence[float]) -> Box:
        x0, y0, x1, y1 = box
        ox, oy = self.origin
        z = self.zoom
        return ((x0 + ox) / z, (y0 + oy) / z, (x1 + ox) / z, (y1 + oy) / z)

    def to_pixels(self, box: Box) -> PixelBox:
        h, w = self.rgb.shape[:2]
        ox, oy = self.origin
        z = self.zoom
        x0 = max(int(box[0] * z - ox), 0)
        y0 = max(int(box[1] * z - oy), 0)
        x1 = min(int(np.ceil(box[2] * z - ox)), w)
        y1 = min(int(np.ceil(box[3] * z - oy)), h)
        return (x0, y0, x1, y1)

    def point(self, xy: Sequence[float]) -> tuple[float, float]:
        return (round((xy[0] + self.origin[0]) / self.zoom, 2), round((xy[1] + self.origin[1]) / self.zoom, 2))

    def crop(self, box: PixelBox, pad: int) -> tuple[np.ndarray, tuple[int, int]]:
        """The pixels of ``box`` with ``pad`` white pixels around (OCR reads edges badly)."""
        x0, y0, x1, y1 = box
        patch = self.rgb[y0:y1, x0:x1]
        out = np.full((patch.shape[0] + 2 * pad, patch.shape[1] + 2 * pad, 3), 255, np.uint8)
        out[pad : pad + patch.shape[0], pad : pad + patch.shape[1]] = patch
        return out, (x0 - pad, y0 - pad)


def read_region(raster: Raster, box: PixelBox) -> list[tuple[str, PixelBox]]:
    """OCR the pixels in ``box``; (text, pixel box in clip pixels) per line read."""
    from labeler.erase.ocr import read_text

    if box[2] - box[0] < 4 or box[3] - box[1] < 4:
        return []
    patch, (dx, dy) = raster.crop(box, pad=8)
    found = []
    for hit in read_text(patch):
        text = " ".join(str(hit.text).split())
        if not text:
            continue
        x0, y0, x1, y1 = (int(round(v)) for v in hit.bbox)
        found.append((text, (x0 + dx, y0 + dy, x1 + dx, y1 + dy)))
    return found


def ocr_fragments(raster: Raster, regions_px: Sequence[PixelBox]) -> list[Fragment]:
    """Line fragments for the text OCR finds in raster regions of the clip."""
    pieces = []
    for region in regions_px:
        for text, box in read_region(raster, region):
            bbox = raster.to_points(box)
            pieces.append(
                Fragment(text=text, bbox=bbox, size=(bbox[3] - bbox[1]) / 1.2, kind="ocr", parts=[box])
            )
    return merge_on_lines(pieces)


def read_outline_text(raster: Raster, fragment: Fragment) -> str:
    """The text of an outline-glyph line, read by OCR from the original render."""
    hits = read_region(raster, raster.to_pixels(fragment.bbox))
    return " ".join(text for text, box in sorted(hits, key=lambda h: h[1][0]))
