"""Bench: the raster label path (OCR, line-keeping erasure, anchors) per real figure.

For each OpenStax JPEG in the shared figures folder (labels burned in) it times
the reading ``erase_figure`` does (``read_lines``: the upright OCR pass, plus the
turned passes for tilted labels only when the upright pass shows some; the
``turned`` column says whether they ran), ``erase_raster_labels`` and
``find_raster_anchors`` (median of three runs, the OCR engine already loaded),
against the bare cost of the same erasure done naively: one ``cv2.inpaint`` of
every OCR box (which also wipes the lines crossing the boxes).
Engine loading is reported once. Run: ``python bench/raster.py [FOLDER]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.erase.ocr import _engine, read_text
from labeler.erase.raster import erase_raster_labels, find_raster_anchors
from labeler.erase.rotated import needs_turned_passes, read_lines

SHARED = Path(__file__).resolve().parents[2] / "shared"
FOLDER = Path(sys.argv[1]) if len(sys.argv) > 1 else SHARED / "external-figures"


def timed(func, *args, runs: int = 3) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = func(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def box_inpaint(rgb: np.ndarray, boxes) -> np.ndarray:
    mask = np.zeros(rgb.shape[:2], np.uint8)
    for x0, y0, x1, y1 in boxes:
        mask[y0:y1, x0:x1] = 255
    return cv2.inpaint(rgb, mask, 3, cv2.INPAINT_TELEA)


def main() -> int:
    figures = sorted(FOLDER.glob("openstax-*.jpg"))
    if not figures:
        print(f"no OpenStax figures in {FOLDER}")
        return 1
    start = time.perf_counter()
    _engine()
    print(f"OCR engine load: {time.perf_counter() - start:.2f} s")
    print(f"{'figure':44} {'size':>10} {'labels':>6} {'ocr s':>6} {'erase s':>8} "
          f"{'naive s':>7} {'ratio':>6} {'anchor s':>8} {'found':>5} {'turned':>6}")  # fmt: skip
    for path in figures:
        rgb = np.asarray(Image.open(path).convert("RGB"))
        ocr_s, found = timed(read_lines, rgb)
        turned = needs_turned_passes(read_text(rgb, min_confidence=0.5))
        boxes = [b.bbox for b in found]
        erase_s, _ = timed(erase_raster_labels, rgb, boxes)
        fill_s, _ = timed(box_inpaint, rgb, boxes)
        anchor_s, anchors = timed(find_raster_anchors, rgb, boxes)
        size = f"{rgb.shape[1]}x{rgb.shape[0]}"
        print(
            f"{path.name[:44]:44} {size:>10} {len(boxes):>6} {ocr_s:>6.2f} {erase_s:>8.3f} "
            f"{fill_s:>7.4f} {erase_s / fill_s:>6.0f} {anchor_s:>8.3f} "
            f"{sum(a is not None for a in anchors):>5} {'yes' if turned else 'no':>6}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
