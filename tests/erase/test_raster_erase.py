"""A figure pasted as an image: OCR finds the labels, the pixel eraser keeps the lines."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from labeler.erase import erase_figure
from labeler.erase.edits import EraseEdits
from tests.erase.erase_fixtures import (
    CLIP,
    DPI,
    LABELS,
    as_pasted_image,
    build,
    decode,
    ink,
    leader_survival,
    leftover_label_ink,
    outside_boxes,
    render,
)

UPRIGHT = tuple(label for label in LABELS if not label.rotate)


@pytest.fixture(scope="module")
def pasted():
    doc = as_pasted_image(build(UPRIGHT))
    assert doc[0].get_text().strip() == "" and len(doc[0].get_images()) == 1
    return doc, erase_figure(doc, 1, clip=CLIP, dpi=DPI)


def test_raster_labels_are_read(pasted):
    _, result = pasted
    assert result.method == "ocr"
    assert all(label.kind == "ocr" for label in result.labels)
    assert sorted(label.text for label in result.labels) == sorted(label.name for label in UPRIGHT)


def test_raster_leaders_separate_stacked_labels_and_give_anchors(pasted):
    by_name = {label.text: label for label in pasted[1].labels}
    for label in UPRIGHT:
        anchor = by_name[label.name].anchor
        assert anchor is not None, label.name
        assert np.hypot(anchor[0] - label.leader[1][0], anchor[1] - label.leader[1][1]) < 4


def test_raster_erasure_keeps_lines_and_removes_ink(pasted):
    _, result = pasted
    question = decode(result.question_png)
    leaders_only = render(as_pasted_image(build(UPRIGHT, text=False, art=False, caption=False)))
    assert leader_survival(question, leaders_only) >= 0.97
    labels_only = render(as_pasted_image(build(UPRIGHT, art=False, leaders=False)))
    no_labels = render(as_pasted_image(build(UPRIGHT, text=False)))
    # resampled raster: a few anti-aliased fringe pixels may stay faintly grey, never dark
    leftover = leftover_label_ink(question, labels_only, no_labels)
    assert leftover <= 0.002 * ink(labels_only, 160).sum()
    answer = decode(result.answer_png)
    outside = outside_boxes(question.shape, [label.bbox for label in result.labels])
    assert np.array_equal(question[outside], answer[outside])


def test_question_pdf_carries_the_erased_pixels(pasted):
    _, result = pasted
    page = pymupdf.open("pdf", result.question_pdf)[0]
    assert page.rect.width == pytest.approx(CLIP[2] - CLIP[0])
    # the pasted figure plus the erased patches laid over it
    assert len(page.get_images()) > 1
    rendered = page.get_pixmap(dpi=DPI, alpha=False)
    rgb = np.frombuffer(rendered.samples, np.uint8).reshape(rendered.height, rendered.width, 3)
    labels_only = render(as_pasted_image(build(UPRIGHT, art=False, leaders=False)))
    h = min(rgb.shape[0], labels_only.shape[0])
    w = min(rgb.shape[1], labels_only.shape[1])
    label_ink = ink(labels_only[:h, :w], 100)
    assert (ink(rgb[:h, :w], 100) & label_ink).sum() <= 0.01 * label_ink.sum()


def test_curator_edits_on_a_raster_figure(pasted):
    doc, default = pasted
    cytoplasm = next(label.bbox for label in default.labels if label.text == "Cytoplasm")
    blank = (150.0, 60.0, 200.0, 80.0)  # white paper: OCR proposed nothing here
    result = erase_figure(
        doc,
        1,
        clip=CLIP,
        dpi=DPI,
        edits=EraseEdits(removed_boxes=(cytoplasm,), extra_boxes=(blank,)),
    )
    names = [label.text for label in result.labels]
    assert "Cytoplasm" not in names and "Cytoplasm" in result.kept
    added = next(label for label in result.labels if label.bbox == blank)
    assert added.kind == "ocr" and added.text == ""
    # the rejected label is still printed on the question image
    question = decode(result.question_png)
    origin = (CLIP[0], CLIP[1]) * 2
    x0, y0, x1, y1 = (int((v - o) * DPI / 72) for v, o in zip(cytoplasm, origin, strict=True))
    assert x1 - x0 > 50 and y1 - y0 > 20
    assert ink(question[y0:y1, x0:x1], 100).sum() > 50
