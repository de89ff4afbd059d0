"""PP-OCR inference (detection, orientation, recognition) on onnxruntime, without rapidocr's code.

Why not rapidocr's own pipeline: importing it parses the library's model tables
(``default_models.yaml``, 1,600 lines) into OmegaConf objects twice, at import time. That was
1.4-1.9 s of a cold ``labeler add-item`` of a raster figure, whose goal is 2.5 s (issue #11),
for tables Labeler never reads: the models are the files rapidocr's wheel ships and we name
them ourselves (``labeler.erase.ocr.bundled_model_paths``). rapidocr stays a dependency as the
carrier of those models and as the reference this module is held to:
``tests/erase/test_ppocr_equivalence.py`` reads real figures through both and requires the same
quads, texts and scores.

The steps are PaddleOCR's inference as rapidocr 3.x configures it (decision 0029 lists them):
bound the image's sides (30-2000 px), pad a very wide or very short image with black rows,
detect with DB (probability map thresholded at 0.3, a 2×2 dilation, one minimum-area rectangle
per contour, scored by the mean probability inside it, grown by the unclip distance
``area × ratio / perimeter``), crop each quad upright, turn crops the classifier reads as
upside down, and recognise with greedy CTC decoding of the character list stored in the
recognition model's metadata. Lines whose text is blank or scores under 0.5 are dropped.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

#: Sides an image is brought within before detection (rapidocr's ``min_side_len``/``max_side_len``).
MIN_SIDE, MAX_SIDE = 30, 2000
#: An image this short, or wider than this many times its height, gets black rows above and below.
PAD_BELOW_HEIGHT, PAD_ABOVE_RATIO = 30, 8
#: Detection input: the shorter side is enlarged to this (never reduced); both sides to × 32.
DETECT_SHORT_SIDE = 736
#: DB post-processing: probability threshold, most contours kept, smallest box side.
MAP_THRESHOLD, MAX_CANDIDATES, MIN_BOX_SIDE = 0.3, 1000, 3
#: Boxes whose first points lie within this many pixels vertically are one row in reading order.
ROW_TOLERANCE = 10
#: Orientation classifier input (C, H, W) and how sure it must be to turn a crop.
CLS_SHAPE, CLS_THRESHOLD = (3, 48, 192), 0.9
#: Recognition input height and narrowest width; crops are read six at a time.
REC_HEIGHT, REC_MIN_WIDTH, BATCH = 48, 320, 6
#: Lines the recogniser scores under this are not returned at all.
MIN_TEXT_SCORE = 0.5
#: The detector's mean and deviation per channel (float64, as the reference computes them).
_HALF = np.array([0.5, 0.5, 0.5])


@dataclass(frozen=True)
class Line:
    """One detected line: its quad in image pixels (TL, TR, BR, BL), its text and score."""

    quad: np.ndarray
    text: str
    score: float


class PpOcr:
    """The three onnxruntime sessions and the steps between them.

    ``models`` maps ``"Det"``, ``"Cls"`` and ``"Rec"`` to ONNX files. Sessions are built on
    first use, as rapidocr does: a figure with no text never loads the recogniser.
    """

    def __init__(self, models: Mapping[str, Path], *, threads: int) -> None:
        self._models = dict(models)
        self._threads = threads
        self._sessions: dict[str, Any] = {}
        self._characters: list[str] | None = None

    def session(self, role: str) -> Any:
        """The onnxruntime session of one model, built once."""
        if role not in self._sessions:
            import onnxruntime as ort

            options = ort.SessionOptions()
            options.log_severity_level = 4
            options.enable_cpu_mem_arena = False
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.intra_op_num_threads = self._threads
            # a thread waiting for work sleeps instead of spinning (see ocr.INTRA_OP_THREADS)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._sessions[role] = ort.InferenceSession(
                str(self._models[role]),
                sess_options=options,
                providers=[("CPUExecutionProvider", {"arena_extend_strategy": "kSameAsRequested"})],
            )
        return self._sessions[role]

    def read(self, bgr: np.ndarray, *, box_thresh: float, unclip_ratio: float) -> list[Line]:
        """Every text line of an H×W×3 uint8 BGR image, in reading order."""
        bounded, ratio_h, ratio_w = _bounded(bgr)
        padded, top = _padded(bounded)
        quads = self._detect(padded, box_thresh, unclip_ratio)
        if not len(quads):
            return []
        crops = [_upright_crop(padded, quad.copy()) for quad in quads]
        texts = self._recognise(self._oriented(crops))
        height, width = bgr.shape[:2]
        lines = []
        for quad, (text, score) in zip(quads, texts, strict=True):
            if not text.strip() or score < MIN_TEXT_SCORE:
                continue
            quad = quad.copy()
            quad[:, 1] -= top
            quad[:, 0] *= ratio_w
            quad[:, 1] *= ratio_h
            quad = np.where(quad < 0, 0, quad)
            quad[:, 0] = np.minimum(quad[:, 0], width)
            quad[:, 1] = np.minimum(quad[:, 1], height)
            lines.append(Line(quad=quad, text=text, score=score))
        return lines

    def _detect(self, image: np.ndarray, box_thresh: float, unclip_ratio: float) -> np.ndarray:
        """Text quads (N×4×2 float32, in ``image`` pixels) from the DB detector."""
        resized = _detector_input(image)
        normalised = (resized.astype(np.float32) * (1 / 255.0) - _HALF) / _HALF
        tensor = normalised.transpose(2, 0, 1)[np.newaxis].astype(np.float32)
        probability = self._run("Det", tensor)[0, 0]
        mask = cv2.dilate((probability > MAP_THRESHOLD).astype(np.uint8), np.ones((2, 2)))
        height, width = image.shape[:2]
        quads = [
            quad
            for quad in _db_boxes(probability, mask, box_thresh, unclip_ratio, width, height)
            if _side(quad[0], quad[1]) > 3 and _side(quad[0], quad[3]) > 3
        ]
        return _reading_order(np.array(quads, np.float32).reshape(-1, 4, 2))

    def _oriented(self, crops: list[np.ndarray]) -> list[np.ndarray]:
        """The crops, each turned 180° where the classifier is sure it is upside down."""
        turned = list(crops)
        for batch in _batches(crops):
            tensor = np.concatenate([_cls_input(crops[i])[np.newaxis] for i in batch])
            probabilities = self._run("Cls", tensor.astype(np.float32))
            for i, row in zip(batch, probabilities, strict=True):
                label = int(row.argmax())
                if label == 1 and row[label] > CLS_THRESHOLD:
                    turned[i] = cv2.rotate(crops[i], cv2.ROTATE_180)
        return turned

    def _recognise(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """Text and mean character confidence of each crop (greedy CTC decoding)."""
        characters = self._character_list()
        results: list[tuple[str, float]] = [("", 0.0)] * len(crops)
        for batch in _batches(crops):
            widest = max(
                [REC_MIN_WIDTH / REC_HEIGHT]
                + [crops[i].shape[1] * 1.0 / crops[i].shape[0] for i in batch]
            )
            tensor = np.concatenate([_rec_input(crops[i], widest)[np.newaxis] for i in batch])
            scores = self._run("Rec", tensor.astype(np.float32))
            for i, steps in zip(batch, scores, strict=True):
                results[i] = _ctc_decode(steps, characters)
        return results

    def _character_list(self) -> list[str]:
        """The recogniser's classes: CTC blank, the metadata's characters, then a space."""
        if self._characters is None:
            meta = self.session("Rec").get_modelmeta().custom_metadata_map
            self._characters = ["blank", *meta["character"].splitlines(), " "]
        return self._characters

    def _run(self, role: str, tensor: np.ndarray) -> np.ndarray:
        session = self.session(role)
        feed = {session.get_inputs()[0].name: tensor}
        return np.asarray(session.run([session.get_outputs()[0].name], feed)[0])


def _rescaled(image: np.ndarray, scale: float) -> tuple[np.ndarray, float, float]:
    """The image scaled, each side rounded to a multiple of 32, and the ratios back."""
    height, width = image.shape[:2]
    new_h, new_w = _to_multiple_of_32(height * scale), _to_multiple_of_32(width * scale)
    return cv2.resize(image, (new_w, new_h)), height / new_h, width / new_w


def _to_multiple_of_32(length: float) -> int:
    return max(32, int(round(int(length) / 32) * 32))


def _bounded(image: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The image with its longest side ≤ MAX_SIDE, then its shortest ≥ MIN_SIDE.

    The ratios map the result back to the input; as in rapidocr, when both steps apply only
    the second's are kept (an image over 2,000 px long and under 30 px high after shrinking).
    """
    ratio_h = ratio_w = 1.0
    if max(image.shape[:2]) > MAX_SIDE:
        image, ratio_h, ratio_w = _rescaled(image, MAX_SIDE / max(image.shape[:2]))
    if min(image.shape[:2]) < MIN_SIDE:
        image, ratio_h, ratio_w = _rescaled(image, MIN_SIDE / min(image.shape[:2]))
    return image, ratio_h, ratio_w


def _padded(image: np.ndarray) -> tuple[np.ndarray, int]:
    """A strip of text gets black rows above and below (the detector misses text filling a
    strip's height); returns the image and the rows added on top."""
    height, width = image.shape[:2]
    if height > PAD_BELOW_HEIGHT and width / height <= PAD_ABOVE_RATIO:
        return image, 0
    target = max(int(width / PAD_ABOVE_RATIO), PAD_BELOW_HEIGHT) * 2
    rows = int(abs(target - height) / 2)
    return cv2.copyMakeBorder(image, rows, rows, 0, 0, cv2.BORDER_CONSTANT, value=(0, 0, 0)), rows


def _detector_input(image: np.ndarray) -> np.ndarray:
    """The detector's input: the shorter side enlarged to DETECT_SHORT_SIDE, sides × 32."""
    scale = max(1.0, DETECT_SHORT_SIDE / min(image.shape[:2]))
    return _rescaled(image, scale)[0]


def _db_boxes(
    probability: np.ndarray,
    mask: np.ndarray,
    box_thresh: float,
    unclip_ratio: float,
    width: int,
    height: int,
) -> Iterator[np.ndarray]:
    """One quad per text region of the thresholded map, scaled to ``width``×``height``."""
    map_h, map_w = mask.shape
    contours, _ = cv2.findContours(mask * 255, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours[:MAX_CANDIDATES]:
        quad, short = _min_area_quad(contour)
        if short < MIN_BOX_SIDE:
            continue
        score = _mean_inside(probability, quad)
        if score < box_thresh:
            continue
        quad, short = _min_area_quad(_grown(quad, unclip_ratio))
        if short < MIN_BOX_SIDE + 2:
            continue
        quad[:, 0] = np.clip(np.round(quad[:, 0] / map_w * width), 0, width)
        quad[:, 1] = np.clip(np.round(quad[:, 1] / map_h * height), 0, height)
        yield _clockwise(quad.astype(np.int32), width, height)


def _min_area_quad(points: np.ndarray) -> tuple[np.ndarray, float]:
    """The minimum-area rectangle around ``points`` as TL, TR, BR, BL, and its shorter side."""
    rect = cv2.minAreaRect(points)
    by_x = sorted(cv2.boxPoints(rect), key=lambda p: p[0])
    left = (by_x[0], by_x[1]) if by_x[1][1] > by_x[0][1] else (by_x[1], by_x[0])
    right = (by_x[2], by_x[3]) if by_x[3][1] > by_x[2][1] else (by_x[3], by_x[2])
    return np.array([left[0], right[0], right[1], left[1]]), min(rect[1])


def _mean_inside(probability: np.ndarray, quad: np.ndarray) -> float:
    """Mean detector probability inside the quad (over its bounding rows and columns)."""
    h, w = probability.shape
    x0 = int(np.clip(np.floor(quad[:, 0].min()), 0, w - 1))
    x1 = int(np.clip(np.ceil(quad[:, 0].max()), 0, w - 1))
    y0 = int(np.clip(np.floor(quad[:, 1].min()), 0, h - 1))
    y1 = int(np.clip(np.ceil(quad[:, 1].max()), 0, h - 1))
    inside = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=np.uint8)
    cv2.fillPoly(inside, [(quad - [x0, y0]).astype(np.int32)], 1)
    return float(cv2.mean(probability[y0 : y1 + 1, x0 : x1 + 1], inside)[0])


def _grown(quad: np.ndarray, ratio: float) -> np.ndarray:
    """The quad offset outward by ``area × ratio / perimeter`` with round joins (DB's unclip)."""
    import pyclipper

    points = quad.astype(np.float64)
    x, y = points[:, 0], points[:, 1]
    area = abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2
    perimeter = float(np.sum(np.hypot(*(np.roll(points, -1, axis=0) - points).T)))
    offset = pyclipper.PyclipperOffset()
    offset.AddPath(quad, pyclipper.JT_ROUND, pyclipper.ET_CLOSEDPOLYGON)
    return np.array(offset.Execute(area * ratio / perimeter)).reshape(-1, 1, 2)


def _clockwise(quad: np.ndarray, width: int, height: int) -> np.ndarray:
    """Corners as TL, TR, BR, BL (two leftmost by y, two rightmost by y), inside the image."""
    by_x = quad[np.argsort(quad[:, 0])]
    left = by_x[:2][np.argsort(by_x[:2, 1])]
    right = by_x[2:][np.argsort(by_x[2:, 1])]
    ordered = np.array([left[0], right[0], right[1], left[1]], dtype=np.float32)
    ordered[:, 0] = np.clip(ordered[:, 0], 0, width - 1).astype(np.int32)
    ordered[:, 1] = np.clip(ordered[:, 1], 0, height - 1).astype(np.int32)
    return ordered


def _side(a: np.ndarray, b: np.ndarray) -> int:
    return int(np.linalg.norm(a - b))


def _reading_order(quads: np.ndarray) -> np.ndarray:
    """Top to bottom by the first corner, rows within ROW_TOLERANCE left to right."""
    if not len(quads):
        return quads
    by_y = quads[np.argsort(quads[:, 0, 1], kind="stable")]
    rows = np.concatenate([[0], np.cumsum(np.diff(by_y[:, 0, 1]) >= ROW_TOLERANCE)])
    return by_y[np.lexsort((by_y[:, 0, 0], rows))]


def _upright_crop(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The quad warped to an upright rectangle; a tall one is turned to run left to right."""
    crop_w = int(max(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[2] - quad[3])))
    crop_h = int(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2])))
    target = np.array([[0, 0], [crop_w, 0], [crop_w, crop_h], [0, crop_h]], dtype=np.float32)
    crop = cv2.warpPerspective(
        image,
        cv2.getPerspectiveTransform(quad, target),
        (crop_w, crop_h),
        borderMode=cv2.BORDER_REPLICATE,
        flags=cv2.INTER_CUBIC,
    )
    return np.rot90(crop) if crop.shape[0] * 1.0 / crop.shape[1] >= 1.5 else crop


def _batches(crops: list[np.ndarray]) -> Iterator[list[int]]:
    """Crop indices by aspect ratio, BATCH at a time (similar widths pad less)."""
    order = np.argsort(np.array([crop.shape[1] / float(crop.shape[0]) for crop in crops]))
    for start in range(0, len(crops), BATCH):
        yield [int(i) for i in order[start : start + BATCH]]


def _scaled_to_height(crop: np.ndarray, height: int, width: int) -> np.ndarray:
    """The crop resized to ``height`` keeping its shape (capped at ``width``), normalised to
    [-1, 1], CHW, zero-padded on the right to ``width``."""
    fitted = min(width, math.ceil(height * crop.shape[1] / float(crop.shape[0])))
    resized = cv2.resize(crop, (fitted, height)).astype("float32").transpose(2, 0, 1) / 255
    resized -= 0.5
    resized /= 0.5
    tensor = np.zeros((3, height, width), dtype=np.float32)
    tensor[:, :, :fitted] = resized
    return tensor


def _cls_input(crop: np.ndarray) -> np.ndarray:
    return _scaled_to_height(crop, CLS_SHAPE[1], CLS_SHAPE[2])


def _rec_input(crop: np.ndarray, widest_ratio: float) -> np.ndarray:
    return _scaled_to_height(crop, REC_HEIGHT, int(REC_HEIGHT * widest_ratio))


def _ctc_decode(steps: np.ndarray, characters: list[str]) -> tuple[str, float]:
    """Greedy CTC: the best class per step, repeats merged, blanks dropped; the score is the
    mean of the kept steps' probabilities (each rounded to 5 places, as PaddleOCR reports)."""
    best = steps.argmax(axis=1)
    keep = np.ones(len(best), dtype=bool)
    keep[1:] = best[1:] != best[:-1]
    keep &= best != 0
    confidences = [round(c, 5) for c in steps.max(axis=1)[keep].tolist()] or [0]
    text = "".join(characters[i] for i in best[keep])
    return text, float(np.mean(confidences).round(5))
