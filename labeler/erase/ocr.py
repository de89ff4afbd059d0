"""Offline OCR of raster labels (PP-OCR models from rapidocr's wheel, run by onnxruntime).

Why these models: rapidocr is Apache-2.0 and its PyPI wheel ships PaddleOCR's detection,
orientation and recognition models (``rapidocr/models/*.onnx``), which run on the CPU. Labeler
must never touch the network at run time, so it names the bundled files itself and stops with
an actionable error if one is missing (rapidocr's own configuration would download a missing
model). The recognition model carries its character list in its ONNX metadata, so no
dictionary file is fetched either. The steps between the models are Labeler's own
(``labeler.erase.ppocr``): importing rapidocr's pipeline costs 1.4-1.9 s of model tables.

The sessions are built once per process and cached. ``rapidocr`` (for its models' folder) and
``onnxruntime`` are imported inside functions so that ``import labeler.erase.ocr`` stays cheap
(the CLI imports modules eagerly).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from labeler.erase.ppocr import PpOcr
from labeler.errors import LabelerError

#: Lines the recogniser is less sure of than this are dropped. On the OpenStax
#: figures every real label scored >= 0.92, while the false boxes the detector
#: proposes over drawings (organelle textures read as "NHUD", "CHIL", "ANU")
#: scored 0.59-0.79.
MIN_CONFIDENCE = 0.8

#: How the bundled model files are told apart, by role (rapidocr 3.10 ships PP-OCRv6_det_small,
#: ch_ppocr_mobile_v2.0_cls_mobile and PP-OCRv6_rec_small; matching by role keeps working when a
#: release renames them).
_MODEL_ROLES = {"Det": "_det_", "Cls": "_cls_", "Rec": "_rec_"}

#: onnxruntime's intra-op threads per session, which sleep rather than spin while they wait
#: (``session.intra_op.allow_spinning`` off, ``labeler.erase.ppocr``). Spinning was what made
#: the default (one thread per core) expensive on a shared 2-core machine: at load 10-17 one
#: thread had cut cold ``labeler add-item`` from 4.6-4.8 to 3.4 s CPU on the OpenStax tooth.
#: Two sleeping threads keep most of that saving and halve the reads at low load (load 0.6, one
#: read per figure: tooth 2.04 → 1.19-1.42 s wall for 2.05 → 2.27-2.33 s CPU, animal cell 1.53
#: → 0.92-0.97 s, Gray's elbow plate at 3× 2.33 → 1.36-1.44 s). The reads do not change: boxes,
#: texts and scores are bit for bit those of one thread (tests/erase/test_ocr_threads.py).
INTRA_OP_THREADS = 2

# Building a session twice at once would load its model twice, and the engine keeps them in a
# plain dict; GUI workers OCR from a thread pool.
_ENGINE_LOCK = threading.Lock()


@dataclass(frozen=True)
class Detection:
    """The detector's post-processing settings (PaddleOCR's ``box_thresh``, ``unclip_ratio``).

    Every read passes both: a figure read with :data:`SMALL_TEXT` must not change the next one's.
    """

    box_thresh: float
    unclip_ratio: float


#: PaddleOCR's defaults, kept for every figure whose text is drawn at its own resolution.
DEFAULT_DETECTION = Detection(box_thresh=0.5, unclip_ratio=1.6)
#: For small engraved text resampled from an enlarged image (``resample``): a lower box score
#: keeps the thin italic lines the detector is unsure of, and a wider unclip keeps a line's
#: first and last letters in its quad. Measured on Gray's elbow plate (decision 0004): 14 → 15
#: of 15 labels found, 3 → 4 named as printed ("Humerus", "Coronoid proc" read whole).
SMALL_TEXT = Detection(box_thresh=0.3, unclip_ratio=2.0)


@dataclass(frozen=True)
class OcrBox:
    """One line of text found by OCR.

    ``bbox`` is the axis-aligned hull of the detected quadrilateral in image pixels
    ``(x0, y0, x1, y1)``; ``angle`` is the slope of the quad's top edge in degrees
    (0 = horizontal, positive = clockwise in image coordinates), kept so that
    tilted labels can be told apart from horizontal ones. Text running vertically
    is read too, but its quad is upright: it shows as a tall ``bbox`` with angle 0.
    ``quad`` is the detected quadrilateral itself (pixels, TL TR BR BL in reading order):
    a tilted label is erased inside it, not inside its hull (see ``rotated``).
    """

    text: str
    bbox: tuple[int, int, int, int]
    confidence: float
    angle: float = 0.0
    quad: tuple[tuple[float, float], ...] = ()


def bundled_model_paths() -> dict[str, Path]:
    """The detection, orientation and recognition models inside the rapidocr package.

    Exactly one ``.onnx`` file per role must be there; anything else means a broken
    or unexpected install, and we refuse rather than let rapidocr download.
    """
    import rapidocr

    folder = Path(rapidocr.__file__).resolve().parent / "models"
    files = sorted(folder.glob("*.onnx")) if folder.is_dir() else []
    paths = {}
    for section, role in _MODEL_ROLES.items():
        matches = [f for f in files if role in f.name]
        if len(matches) != 1:
            raise LabelerError(
                f"Expected one bundled OCR model with {role!r} in its name in {folder}, "
                f"found {len(matches)}. Reinstall rapidocr "
                "(`pip install --force-reinstall rapidocr`); Labeler never downloads models."
            )
        paths[section] = matches[0]
    return paths


@cache
def _engine() -> PpOcr:
    """The PP-OCR engine over the bundled models, built once per process."""
    return PpOcr(bundled_model_paths(), threads=INTRA_OP_THREADS)


def read_text(
    rgb: np.ndarray,
    *,
    min_confidence: float = MIN_CONFIDENCE,
    detection: Detection = DEFAULT_DETECTION,
) -> list[OcrBox]:
    """Find and read the text lines in an H×W×3 uint8 RGB image.

    Returns one :class:`OcrBox` per detected line, top-to-bottom then
    left-to-right. Dropped as junk: lines whose text is empty or has no letter or
    digit (specks and line ends read as "-" or "|"), and lines below
    ``min_confidence`` (mostly textures inside drawings; see :data:`MIN_CONFIDENCE`).
    ``detection`` sets the detector's box score and unclip ratio (see :class:`Detection`).
    """
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"read_text needs an H×W×3 uint8 RGB array, got {rgb.shape} {rgb.dtype}")
    with _ENGINE_LOCK:
        # The models were trained on OpenCV's channel order (BGR).
        lines = _engine().read(
            np.ascontiguousarray(rgb[:, :, ::-1]),
            box_thresh=detection.box_thresh,
            unclip_ratio=detection.unclip_ratio,
        )
    height, width = rgb.shape[:2]
    boxes: list[OcrBox] = []
    for line in lines:
        text = " ".join(line.text.split())
        if line.score < min_confidence or not any(ch.isalnum() for ch in text):
            continue
        quad = np.asarray(line.quad, dtype=float)
        boxes.append(
            OcrBox(
                text=text,
                bbox=_hull(quad, width, height),
                confidence=line.score,
                angle=_top_edge_angle(quad),
                quad=tuple((float(x), float(y)) for x, y in quad),
            )
        )
    boxes.sort(key=lambda b: (b.bbox[1], b.bbox[0]))
    return boxes


def _hull(quad: np.ndarray, width: int, height: int) -> tuple[int, int, int, int]:
    """Integer pixel hull of a 4×2 quad, clamped to the image."""
    x0, y0 = (int(v) for v in np.floor(quad.min(axis=0)))
    x1, y1 = (int(v) for v in np.ceil(quad.max(axis=0)))
    return (max(0, x0), max(0, y0), min(width, x1), min(height, y1))


def _top_edge_angle(quad: np.ndarray) -> float:
    """Angle in degrees of the quad's first edge (the detector orders points TL, TR, BR, BL)."""
    dx, dy = quad[1] - quad[0]
    return round(math.degrees(math.atan2(dy, dx)), 1)
