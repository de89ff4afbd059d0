"""The near-linear line merge and label grouping give exactly the every-pair result.

Generated fragments (rows of words at several sizes, stacked multi-line labels, rotated and
slightly tilted labels, markers and captions) and real pages (the bench's dense page, the
sample textbook) go through both the package's functions and the original pairwise loops in
``tests/harvest/reference_grouping.py``; texts, boxes and groupings must be identical.
"""

from __future__ import annotations

import copy
import math
import sys
from pathlib import Path

import pymupdf
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.data import SAMPLE_BOOK, data_file
from labeler.harvest import LeaderIndex, fragments_from_spans, group_labels, merge_on_lines
from labeler.harvest.fragments import Fragment, split_at_gaps
from labeler.pdf.content import drawings, text_spans
from tests.harvest import reference_grouping as reference

WORDS = ("Aorta", "Left", "atrium", "Vena", "cava", "A", "B)", "Figure 3.2", "(I-VII)", "mem-")


def _fragment(text: str, x: float, y: float, size: float, angle: float) -> Fragment:
    width = 0.5 * size * len(text)
    direction = (math.cos(angle), -math.sin(angle))
    corners = [(x, y), (x + width * direction[0], y + width * direction[1])]
    down = (-direction[1], direction[0])
    corners += [(cx + size * down[0], cy + size * down[1]) for cx, cy in corners]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return Fragment(
        text=text,
        bbox=(min(xs), min(ys), max(xs), max(ys)),
        size=size,
        kind="vector",
        direction=(1.0, 0.0) if angle == 0 else direction,
    )


@st.composite
def pages(draw: st.DrawFn) -> list[Fragment]:
    fragments = []
    for _ in range(draw(st.integers(1, 20))):
        size = draw(st.sampled_from((4.0, 6.0, 9.0, 11.0, 24.0)))
        angle = draw(st.sampled_from((0.0, 0.0, 0.0, 0.0, math.pi / 2, 0.05, -0.03)))
        x = draw(st.floats(0, 400, allow_nan=False))
        y = draw(st.floats(0, 300, allow_nan=False))
        # words close together on one row, and lines stacked under each other
        for n in range(draw(st.integers(1, 4))):
            row_y = y + n * size * draw(st.sampled_from((1.0, 1.2, 1.6)))
            cursor = x + draw(st.sampled_from((0.0, 0.0, size * 0.8)))
            for word in draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)):
                fragments.append(_fragment(word, cursor, row_y, size, angle))
                cursor += 0.5 * size * len(word) + draw(st.sampled_from((0.2, 0.5, 2.0))) * size
    return fragments


def _lines(fragments: list[Fragment]) -> list[tuple[str, tuple, float]]:
    return [(f.text, f.bbox, f.size) for f in fragments]


def _groups(groups) -> list[list[tuple[str, tuple]]]:
    return [[(f.text, f.bbox) for f in g.lines] for g in groups]


@settings(max_examples=100, deadline=None)
@given(pages())
def test_merge_on_lines_equals_the_pairwise_merge(fragments: list[Fragment]) -> None:
    fast = merge_on_lines(copy.deepcopy(fragments))
    slow = reference.merge_on_lines(copy.deepcopy(fragments))
    assert _lines(fast) == _lines(slow)


@settings(max_examples=100, deadline=None)
@given(pages())
def test_group_labels_equals_the_pairwise_grouping(fragments: list[Fragment]) -> None:
    lines = reference.merge_on_lines(copy.deepcopy(fragments))
    fast = group_labels(copy.deepcopy(lines))
    slow = reference.group_lines(copy.deepcopy(lines))
    slow.sort(key=lambda g: (g.bbox[1], g.bbox[0]))
    assert _groups(fast) == _groups(slow)


def _dense_page(words: int) -> pymupdf.Document:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        from harvest import dense_page
    finally:
        sys.path.pop(0)
    return dense_page(words)


def test_real_pages_harvest_exactly_as_the_pairwise_loops() -> None:
    book = pymupdf.open(data_file(SAMPLE_BOOK))
    pages = [*book, _dense_page(1500)[0]]
    for page in pages:
        spans = [s for s in text_spans(page) if s.plausible]
        leaders = LeaderIndex(drawings(page))
        fast = group_labels(fragments_from_spans(spans), leaders)
        slow_lines = reference.merge_on_lines(split_at_gaps(spans))
        slow = reference.group_lines(slow_lines, leaders)
        slow.sort(key=lambda g: (g.bbox[1], g.bbox[0]))
        assert _groups(fast) == _groups(slow), f"page {page.number + 1}"
        assert fast
