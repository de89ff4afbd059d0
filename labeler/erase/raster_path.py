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
from labeler.pdf.geometry import Box, PixelBox, center_in


@dataclass(frozen=True)
class Raster:
    """A rendered clip: RGB pixels plus the mapping back to page points."""

    rgb: np.ndarray
    origin: tuple[int, int]  # pixmap x, y in zoomed page space
    zoom: float
    pixmap: pymupdf.Pixmap | None = None  # owns the memory ``rgb`` views (no copy)

    @classmethod
    def from_pixmap(cls, pix: pymupdf.Pixmap, dpi: int) -> Raster:
        rgb = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
        return cls(rgb[:, :, :3], (pix.x, pix.y), dpi / 72.0, pix)

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

    def to_pixel_point(self, xy: Sequence[float]) -> tuple[float, float]:
        """A page point's position in the rendered clip, in (fractional) pixels."""
        return (xy[0] * self.zoom - self.origin[0], xy[1] * self.zoom - self.origin[1])

    def point(self, xy: Sequence[float]) -> tuple[float, float]:
        return (
            round((xy[0] + self.origin[0]) / self.zoom, 2),
            round((xy[1] + self.origin[1]) / self.zoom, 2),
        )


Hit = tuple[str, PixelBox]


def read_all(raster: Raster) -> list[Hit]:
    """OCR the whole rendered clip once: (text, pixel box) per line read.

    One pass over the clip is both faster and more accurate than OCR of many
    small crops (the detector upsamples every crop to its working size).
    """
    from labeler.erase.ocr import read_text

    found = []
    for hit in read_text(np.ascontiguousarray(raster.rgb)):
        text = " ".join(str(hit.text).split())
        if text:
            found.append((text, tuple(round(float(v)) for v in hit.bbox)))
    return found


def hits_in(hits: Sequence[Hit], box: PixelBox) -> list[Hit]:
    """The hits whose centre lies in ``box``, in reading order."""
    return sorted((h for h in hits if center_in(h[1], box)), key=lambda h: (h[1][1], h[1][0]))


def ocr_fragments(raster: Raster, hits: Sequence[Hit]) -> list[Fragment]:
    """Line fragments for OCR hits (boxes converted to page points)."""
    pieces = []
    for text, box in hits:
        bbox = raster.to_points(box)
        pieces.append(
            Fragment(text=text, bbox=bbox, size=(bbox[3] - bbox[1]) / 1.2, kind="ocr", parts=[box])
        )
    return merge_on_lines(pieces)


def name_outline_lines(
    raster: Raster, hits: Sequence[Hit], lines: Sequence[Fragment]
) -> list[Fragment]:
    """Give each outline-glyph line the OCR text read over it; drop lines OCR cannot read.

    Each hit goes to the line it overlaps most, so a hit is never used twice.
    """
    texts: dict[int, list[Hit]] = {}
    for hit in hits:
        best, best_area = None, 0.0
        for index, line in enumerate(lines):
            x0, y0, x1, y1 = raster.to_pixels(line.bbox)
            hx0, hy0, hx1, hy1 = hit[1]
            area = max(0, min(x1, hx1) - max(x0, hx0)) * max(0, min(y1, hy1) - max(y0, hy0))
            if area > best_area:
                best, best_area = index, area
        if best is not None:
            texts.setdefault(best, []).append(hit)
    named = []
    for index, line in enumerate(lines):
        if index in texts:
            line.text = " ".join(t for t, _ in sorted(texts[index], key=lambda h: h[1][0]))
            named.append(line)
    return named
