"""Openly licensed figures nobody here tuned to (tests/data/figures, see SOURCES.md).

Each JPEG is pasted on a page at one image pixel per rendered pixel and erased through the
raster path. The keys below were read off the figures by eye. Orientation words and view
captions printed on the vertebra figure ("Posterior", "Superior view") are keyed like any
label (the curator removes them); "Vertebral arch:" heads a column and stays printed.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections import Counter
from functools import cache

import numpy as np
import pytest
from PIL import Image

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from labeler.erase.residual import readable_in
from tests.erase.raster_leaders_figure import pasted
from tests.paths import ROOT

FIGURES = ROOT / "tests" / "data" / "figures"
SCALE = 2  # px per point: rendered at 144 dpi, one image pixel per rendered pixel

LEADER_LABELS = {
    "openstax-ap2e-718_Vertebra.jpg": [
        "Spinal cord", "Vertebral foramen", "Spinous process",
        "Facet of superior articular process", "Facet for head of rib", "Transverse process",
        "Intervetebral disc",  # the figure's spelling
        "Lamina", "Pedicle", "Body", "Spinal nerve exiting through intervertebral foramen",
        "Spinal cord", "Facet of superior articular process", "Facet for head of rib",
        "Inferior articular process", "Spinous process",
    ],
    "openstax-ap2e-2702_Fluid_Compartments_ICF_ECF.jpg": [
        "Intracellular fluid (ICF)", "Plasma", "Interstitial fluid (IF)",
    ],
    "openstax-ap2e-108_Directional_Terms.jpg": [
        "Superior", "Cranial", "Right", "Left", "Proximal", "Posterior or dorsal",
        "Anterior or ventral", "Medial", "Lateral", "Caudal", "Proximal", "Distal", "Distal",
        "Inferior",
    ],
}  # fmt: skip
VIEW_WORDS = {
    "openstax-ap2e-718_Vertebra.jpg": Counter(
        {"Posterior": 2, "Anterior": 2, "Superior view": 1,
         "Left posterolateral view of articulated vertebrae": 1}
    ),
}  # fmt: skip


@cache
def _erased(name: str):
    rgb = np.asarray(Image.open(FIGURES / name).convert("RGB"))
    result = erase_figure(pasted(rgb, SCALE), 1, dpi=72 * SCALE)
    question = np.asarray(Image.open(io.BytesIO(result.question_png)).convert("RGB"))
    return rgb, result, question, read_text(question)


@pytest.fixture(params=sorted(LEADER_LABELS))
def case(request):
    return request.param, *_erased(request.param)


def test_the_files_are_the_recorded_copies():
    recorded = re.findall(r"^([0-9a-f]{64})  (\S+)$", (FIGURES / "SOURCES.md").read_text(), re.M)
    assert len(recorded) == 3
    for digest, name in recorded:
        data = (FIGURES / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest
        assert len(data) < 300_000


def test_the_key_is_the_printed_labels(case):
    name, _, result, _, _ = case
    key = Counter(label.text for label in result.labels)
    assert key == Counter(LEADER_LABELS[name]) + VIEW_WORDS.get(name, Counter())


def test_no_key_name_is_readable(case):
    name, _, result, _, read = case
    words = " ".join(box.text for box in read).lower()
    assert readable_in(sorted(set(LEADER_LABELS[name])), words) == []
    assert result.kept == (["Vertebral arch:"] if "Vertebra" in name else [])


def test_pixels_outside_the_labels_are_unchanged(case):
    _, rgb, result, question, _ = case
    outside = np.ones(rgb.shape[:2], bool)
    for label in result.labels:
        x0, y0, x1, y1 = (round(v * SCALE) for v in label.bbox)
        outside[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1] = False
    assert np.array_equal(question[outside], rgb[outside])


def test_collinear_leaders_are_kept_and_the_word_between_them_goes():
    """ "Body" sits between two collinear leaders: both stay, no ink is left between them."""
    rgb, result, question, _ = _erased("openstax-ap2e-718_Vertebra.jpg")
    body = next(label for label in result.labels if label.text == "Body")
    x0, y0, x1, y1 = (round(v * SCALE) for v in body.bbox)
    dark = question.mean(axis=2) < 128
    assert dark[y0:y1, x0 + 4 : x1 - 4].sum() == 0  # the word and no band through it
    row = (y0 + y1) // 2
    window = slice(row - 3, row + 4)
    assert (rgb.mean(axis=2)[window, x0 - 30 : x0 - 10] < 128).any()
    assert dark[window, x0 - 30 : x0 - 10].any() and dark[window, x1 + 10 : x1 + 30].any()


def test_a_label_on_skin_leaves_no_word_shape():
    rgb, result, question, _ = _erased("openstax-ap2e-108_Directional_Terms.jpg")
    medial = next(label for label in result.labels if label.text == "Medial")
    x0, y0, x1, y1 = (round(v * SCALE) for v in medial.bbox)
    before, after = rgb[y0:y1, x0:x1].astype(int), question[y0:y1, x0:x1].astype(int)
    skin = np.median(rgb[y0 - 12 : y0 - 4, x0:x1].reshape(-1, 3), axis=0)
    assert np.abs(before - skin).max() > 150  # black letters on the skin colour
    assert np.abs(after - skin).max(axis=2).mean() <= 8
    assert np.abs(after - skin).max() <= 40
