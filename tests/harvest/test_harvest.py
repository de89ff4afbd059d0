"""Label grouping, markers and leader anchors on small hand-made inputs."""

from __future__ import annotations

import pymupdf
import pytest

from labeler.harvest import (
    Fragment,
    LeaderIndex,
    excluded_reason,
    fragments_from_spans,
    group_labels,
    join_lines,
    marker_letter,
)
from labeler.pdf.content import drawings, text_spans


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["Mito-", "chondrion"], "Mitochondrion"),
        (["Periosteum", "(membrane covering bone)"], "Periosteum (membrane covering bone)"),
        (["Alpha-", "Helix protein"], "Alpha- Helix protein"),  # capital after hyphen: keep it
        (["  Cell ", "membrane"], "Cell membrane"),
    ],
)
def test_join_lines(lines, joined):
    assert join_lines(lines) == joined


@pytest.mark.parametrize(
    ("text", "letter"),
    [("A", "A"), ("B)", "B"), ("C.", "C"), ("a", None), ("AB", None), ("(A)", None)],
)
def test_marker_letter(text, letter):
    assert marker_letter(text) == letter


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Figure 3.1 A cell", "caption"),
        ("Fig. 12", "caption"),
        ("FIGURE 2", "caption"),
        ("(a)", "panel"),
        ("b)", "panel"),
        ("Figured bass", None),
        ("Nucleus", None),
    ],
)
def test_excluded_reason(text, reason):
    assert excluded_reason(text) == reason


def _page_with(texts, lines=()):
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for origin, text in texts:
        page.insert_text(origin, text, fontsize=10)
    for start, end in lines:
        page.draw_line(start, end, width=0.8)
    return page


def test_one_block_two_labels_and_wide_gaps_split():
    # two labels on one baseline far apart, and two stacked labels with their own leaders
    page = _page_with(
        [
            ((20, 40), "Left label"),
            ((220, 40), "Right label"),
            ((20, 100), "Upper"),
            ((20, 110), "Lower"),
        ],
        [((50, 97), (150, 80)), ((50, 107), (150, 130))],
    )
    groups = group_labels(fragments_from_spans(text_spans(page)), LeaderIndex(drawings(page)))
    assert sorted(g.text for g in groups) == ["Left label", "Lower", "Right label", "Upper"]
    anchors = {g.text: g.anchor for g in groups}
    assert anchors["Upper"] == (150.0, 80.0) and anchors["Lower"] == (150.0, 130.0)


def test_a_wide_space_inside_one_span_splits_it():
    page = _page_with([((20, 40), "Alpha" + " " * 12 + "Beta")])
    assert sorted(f.text for f in fragments_from_spans(text_spans(page))) == ["Alpha", "Beta"]


def test_centred_multiline_label_joins_but_distant_line_does_not():
    page = _page_with(
        [((40, 40), "Smooth endoplasmic"), ((62, 51), "reticulum"), ((40, 90), "Ribosome")]
    )
    groups = group_labels(fragments_from_spans(text_spans(page)))
    assert [g.text for g in groups] == ["Smooth endoplasmic reticulum", "Ribosome"]


def test_bracket_leader_anchor_is_its_far_end():
    index = LeaderIndex(
        drawings(_page_with([], [((300, 50), (300, 150)), ((300, 100), (330, 100))]))
    )
    # two separate paths that do not share an end: the label's leader is the short stub
    leader = index.leader_at((335, 95, 380, 105), margin=9)
    assert leader is not None
    assert LeaderIndex.anchor(leader, (335, 95, 380, 105)) == (300.0, 100.0)
    joined = LeaderIndex(
        drawings(_page_with([], [((300, 50), (330, 50)), ((300, 50), (300, 150))]))
    )
    leader = joined.leader_at((335, 45, 380, 55), margin=9)
    assert LeaderIndex.anchor(leader, (335, 45, 380, 55)) == (300.0, 150.0)


def test_ocr_like_fragments_group_the_same_way():
    lines = [
        Fragment("Endoplasmic", (10, 10, 80, 22), 10, "ocr"),
        Fragment("reticulum", (10, 22, 70, 34), 10, "ocr"),
        Fragment("Nucleus", (10, 80, 60, 92), 10, "ocr"),
    ]
    assert [g.text for g in group_labels(lines)] == ["Endoplasmic reticulum", "Nucleus"]
