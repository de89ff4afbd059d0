"""Labels converted to outlines: glyph clustering, OCR naming and covered-path removal."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from labeler.erase import erase_figure
from labeler.erase.outlines import glyph_lines, is_glyph
from labeler.pdf.content import drawings
from tests.erase.erase_fixtures import (
    CLIP,
    DPI,
    LABELS,
    MARKER_LABELS,
    as_outlines,
    build,
    decode,
    leader_survival,
    leftover_label_ink,
    outside_boxes,
    render,
)

# Horizontal labels only: the OCR engine reads upright lines.
UPRIGHT = tuple(label for label in LABELS if not label.rotate)


@pytest.fixture(scope="module")
def outlined():
    doc = as_outlines(build(UPRIGHT))
    assert doc[0].get_text().strip() == ""  # really no extractable text
    return doc, erase_figure(doc, 1, clip=CLIP, dpi=DPI)


def test_outline_labels_are_found_and_read(outlined):
    _, result = outlined
    assert result.method == "outline"
    assert all(label.kind == "outline" for label in result.labels)
    assert sorted(label.text for label in result.labels) == sorted(label.name for label in UPRIGHT)


def test_outline_leaders_are_anchored(outlined):
    by_name = {label.text: label for label in outlined[1].labels}
    for label in UPRIGHT:
        anchor = by_name[label.name].anchor
        assert anchor is not None, label.name
        assert np.hypot(anchor[0] - label.leader[1][0], anchor[1] - label.leader[1][1]) < 1.5


def test_no_glyph_paths_remain_and_lines_survive(outlined):
    _, result = outlined
    question_pdf = pymupdf.open("pdf", result.question_pdf)
    assert question_pdf[0].get_text().strip() == ""
    question = decode(result.question_png)
    leaders_only = render(as_outlines(build(UPRIGHT, text=False, art=False, caption=False)))
    assert leader_survival(question, leaders_only) >= 0.97
    labels_only = render(as_outlines(build(UPRIGHT, art=False, leaders=False)))
    no_labels = render(as_outlines(build(UPRIGHT, text=False)))
    assert leftover_label_ink(question, labels_only, no_labels) == 0
    answer = decode(result.answer_png)
    outside = outside_boxes(question.shape, [label.bbox for label in result.labels])
    assert outside.mean() > 0.8
    assert np.array_equal(question[outside], answer[outside])


def test_glyph_clusters_ignore_the_drawing():
    doc = as_outlines(build(UPRIGHT, text=False))
    assert glyph_lines(drawings(doc[0]), CLIP) == []
    text_doc = as_outlines(build(UPRIGHT, art=False, leaders=False, caption=False))
    found = glyph_lines(drawings(text_doc[0]), CLIP)
    printed_lines = sum(len(label.lines) for label in UPRIGHT)
    assert len(found) == printed_lines
    assert all(is_glyph(d) for d in drawings(text_doc[0]) if d.rect[3] - d.rect[1] > 3)


def test_outline_markers():
    doc = as_outlines(build(MARKER_LABELS))
    result = erase_figure(doc, 1, clip=CLIP, dpi=DPI)
    assert sorted(label.marker for label in result.labels) == ["A", "B", "C"]
