"""Vector-text erasure on a generated figure: the issue's acceptance, measured on pixels."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from labeler.erase import erase_figure
from labeler.erase.edits import EraseEdits
from labeler.erase.vector_text import erase_vector_text
from labeler.harvest import fragments_from_spans
from labeler.pdf.content import text_spans
from tests.erase.erase_fixtures import (
    CAPTION,
    CLIP,
    DPI,
    LABELS,
    MARKER_LABELS,
    build,
    decode,
    ink,
    leader_survival,
    leftover_label_ink,
    outside_boxes,
    render,
)


@pytest.fixture(scope="module")
def figure():
    doc = build()
    return doc, erase_figure(doc, 1, clip=CLIP, dpi=DPI)


def test_harvested_key_equals_printed_labels(figure):
    _, result = figure
    assert sorted(label.text for label in result.labels) == sorted(label.name for label in LABELS)
    assert all(label.kind == "vector" and label.marker is None for label in result.labels)
    assert result.method == "vector-text"


def test_multiline_hyphen_and_gloss_are_joined(figure):
    names = {label.text for label in figure[1].labels}
    assert "Endoplasmic reticulum" in names
    assert "Mitochondrion" in names
    assert "Periosteum (membrane covering bone)" in names


def test_leader_anchors_are_the_far_ends(figure):
    by_name = {label.text: label for label in figure[1].labels}
    for label in LABELS:
        anchor = by_name[label.name].anchor
        assert anchor is not None, label.name
        assert np.hypot(anchor[0] - label.leader[1][0], anchor[1] - label.leader[1][1]) < 1.0


def test_no_text_is_extractable_from_the_erased_clip(figure):
    _, result = figure
    question = pymupdf.open("pdf", result.question_pdf)
    assert question.page_count == 1
    assert question[0].get_text().strip() == ""
    # the clip is a vector page, not an image
    assert question[0].get_drawings() and not question[0].get_images()


def test_question_pdf_holds_nothing_from_outside_the_clip(figure):
    doc, result = figure
    assert CAPTION in doc[0].get_text()  # the source page has a caption below the clip
    page = pymupdf.open("pdf", result.question_pdf)[0]
    assert page.cropbox == pymupdf.Rect(CLIP)
    page.set_cropbox(page.mediabox)  # look behind the crop box: nothing hides there
    assert page.get_text().strip() == ""
    x0, y0, x1, y1 = CLIP
    for d in page.get_drawings():  # a straight line's rect is degenerate: compare edges
        r = d["rect"]
        assert r.x1 >= x0 and r.x0 <= x1 and r.y1 >= y0 and r.y0 <= y1, r


def test_text_outside_the_clip_is_untouched():
    # a clip over the left half; "Periosteum (membrane covering bone)" straddles its edge
    doc = build()
    page = doc[0]
    clip = (20, 20, 480, 420)
    erase_vector_text(
        page, [p for f in fragments_from_spans(text_spans(page, clip)) for p in f.parts]
    )
    text = " ".join(page.get_text().split())
    assert "Nucleus" not in text and "Cytoplasm" not in text and "Axon" not in text
    assert CAPTION in text
    assert "Lysosome" not in text  # 430-480: inside
    assert "(membrane covering bone)" not in text
    # the characters right of x=480 are still printed: the last "m" of "Periosteum"
    # and "e covering bone)"
    right = " ".join(page.get_text(clip=(480, 20, 600, 420)).split())
    assert right == "m e covering bone)"


def test_the_source_document_is_never_modified(figure):
    doc, _ = figure
    assert CAPTION in " ".join(doc[0].get_text().split())
    assert "Nucleus" in doc[0].get_text()
    assert not list(doc[0].annots())


def test_leader_lines_survive(figure):
    _, result = figure
    question = decode(result.question_png)
    leaders_only = render(build(text=False, art=False, caption=False))
    assert question.shape == leaders_only.shape
    assert leader_survival(question, leaders_only) >= 0.97


def test_no_label_ink_remains(figure):
    _, result = figure
    question = decode(result.question_png)
    labels_only = render(build(art=False, leaders=False))
    no_labels = render(build(text=False))
    assert ink(labels_only, 160).sum() > 2000  # the labels really were printed in the clip
    assert leftover_label_ink(question, labels_only, no_labels) == 0


def test_drawing_outside_label_boxes_is_unchanged(figure):
    _, result = figure
    question = decode(result.question_png)
    answer = decode(result.answer_png)
    outside = outside_boxes(question.shape, [label.bbox for label in result.labels])
    assert outside.mean() > 0.8
    assert np.array_equal(question[outside], answer[outside])
    # and inside the label boxes the question equals the figure printed without labels, up
    # to anti-aliasing of the lines crossing them (label regions are re-rendered with a clip)
    no_labels = render(build(text=False))
    diff = np.abs(question.astype(int) - no_labels.astype(int)).max(axis=2)
    assert (diff > 32).sum() == 0


def test_answer_is_the_original_clip_on_white(figure):
    _, result = figure
    answer = decode(result.answer_png)
    assert np.array_equal(answer, render(build()))
    assert answer[0, 0].tolist() == [255, 255, 255]


def test_markers_are_recognised_and_stay_printed():
    extra = (((520, 400), "(a)"), ((200, 410), "Figure 2"))
    doc = build(MARKER_LABELS, extra_text=extra)
    result = erase_figure(doc, 1, clip=CLIP, dpi=DPI)
    assert sorted(label.marker for label in result.labels) == ["A", "B", "C"]
    assert all(label.text == "" for label in result.labels)
    anchors = {label.marker: label.anchor for label in result.labels}
    assert anchors["A"] == (290.0, 215.0)
    # markers, the panel letter and the in-clip caption stay on the question image
    remaining = pymupdf.open("pdf", result.question_pdf)[0].get_text()
    for text in ("A", "B)", "C.", "(a)", "Figure 2"):
        assert text in remaining
    assert set(result.kept) == {"(a)", "Figure 2"}


def test_keep_removed_and_extra_boxes():
    doc = build(extra_text=(((60, 400), "10 µm"),))
    default = erase_figure(doc, 1, clip=CLIP, dpi=72)
    assert "10 µm" in {label.text for label in default.labels}
    scale = next(label.bbox for label in default.labels if label.text == "10 µm")
    golgi = next(label.bbox for label in default.labels if label.text == "Golgi")
    lysosome = next(label.bbox for label in default.labels if label.text == "Lysosome")
    together = (golgi[0], golgi[1], max(golgi[2], lysosome[2]), lysosome[3])
    result = erase_figure(
        doc,
        1,
        clip=CLIP,
        dpi=72,
        edits=EraseEdits(keep=(scale,), removed_boxes=(golgi,), extra_boxes=(together,)),
    )
    names = {label.text for label in result.labels}
    # the curator's box wins over the rejection: Golgi + Lysosome are one label now
    assert "Golgi Lysosome" in names
    assert "10 µm" not in names
    remaining = pymupdf.open("pdf", result.question_pdf)[0].get_text()
    assert "10 µm" in remaining
    assert "Golgi" not in remaining

    rejected = erase_figure(doc, 1, clip=CLIP, dpi=72, edits=EraseEdits(removed_boxes=(golgi,)))
    assert "Golgi" not in {label.text for label in rejected.labels}
    assert "Golgi" in pymupdf.open("pdf", rejected.question_pdf)[0].get_text()


def test_whole_page_without_clip_takes_the_caption_out_of_the_key():
    doc = build()
    result = erase_figure(doc, 1, dpi=72)
    assert sorted(label.text for label in result.labels) == sorted(label.name for label in LABELS)
    assert result.kept == [CAPTION]
    assert result.clip == (0.0, 0.0, 600.0, 500.0)


def test_label_at_an_odd_angle_is_erased():
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    origin = pymupdf.Point(60, 150)
    page.insert_text(origin, "Tibia", fontsize=12, morph=(origin, pymupdf.Matrix(30)))
    page.insert_text((150, 60), "Femur", fontsize=12)
    page.draw_line((100, 115), (200, 100), width=0.8)
    doc = pymupdf.open("pdf", doc.tobytes())
    result = erase_figure(doc, 1, clip=(0, 0, 140, 200), dpi=72)
    assert [label.text for label in result.labels] == ["Tibia"]
    erased = pymupdf.open("pdf", result.question_pdf)[0]
    assert erased.get_text().strip() == ""
    assert "Femur" in doc[0].get_text()  # outside the clip, and the source is untouched
