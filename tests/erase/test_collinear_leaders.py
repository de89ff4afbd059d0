"""Raster labels with leaders leaving both ends, and labels side by side on one line.

A collinear pair of leaders is not "a line through the label": the word between them is
erased, both leaders are kept, and a column of such labels as tight as one label's lines
stays one name per label. Two labels on one line, each with its own leader, are two names.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from PIL import Image

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from tests.erase.raster_leaders_figure import LABELS, NAMES, SCALE, pasted, render, text_boxes

DPI = 72 * SCALE  # the question pixels line up with the figure's own pixels


@pytest.fixture(scope="module")
def erased():
    result = erase_figure(pasted(render()), 1, dpi=DPI)
    question = np.asarray(Image.open(io.BytesIO(result.question_png)).convert("RGB"))
    return result, question.astype(int)


def test_each_label_is_one_name(erased):
    result, _ = erased
    assert sorted(label.text for label in result.labels) == NAMES


def test_anchors_are_the_far_ends_of_each_labels_own_leaders(erased):
    result, _ = erased
    ends = {label.text: [end for _, end in label.leaders] for label in LABELS}
    for label in result.labels:
        assert label.anchor is not None, label.text
        assert min(math.dist(label.anchor, end) for end in ends[label.text]) <= 3, label


def test_the_words_between_collinear_leaders_are_erased(erased):
    _, question = erased
    assert [box.text for box in read_text(question.astype(np.uint8))] == []
    ideal = render(text=False).astype(int)
    for rect in text_boxes():
        x0, y0, x1, y1 = (round(v * SCALE) for v in rect)
        differ = np.abs(question[y0:y1, x0:x1] - ideal[y0:y1, x0:x1]).max(axis=2) > 60
        assert differ.mean() <= 0.01, (rect, differ.mean())


def test_the_leaders_are_kept(erased):
    _, question = erased
    leaders = render(art=False, text=False).mean(axis=2) < 160
    assert question.mean(axis=2)[leaders].max() < 200  # no leader pixel was painted over
    still = question.mean(axis=2)[leaders] < 160
    assert still.mean() >= 0.98
