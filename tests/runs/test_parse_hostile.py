"""Any text parses without an exception, in time linear in its size and bounded overall."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.runs.parse import parse_answer
from labeler.runs.parse_lenient import MAX_DEPTH
from labeler.status import ResponseStatus

#: CPU seconds of the parsing thread, generous; the bench holds the real figure (<= 0.5 s per MB).
#: Thread time, not wall time: on a loaded shared machine the scheduler alone stretches wall
#: time past any bound, while a quadratic parse of a megabyte would still take minutes of CPU.
BUDGET_S = 2.0

_PIECES = st.sampled_from(
    ["{", "}", "[", "]", '"', "'", ":", ",", "\\", "//", "/*", "*/", "\n", " ", "```", "<think>",
     "</think>", "name", "labels", "- ", "1. ", "| a |", "None", "\ud800", "\udfff", "aorta",
     '{"name": "x"}', '{"labels": [', "I can't", "\x00"]
)  # fmt: skip
_TEXT = st.one_of(
    st.text(max_size=400),
    st.lists(_PIECES, max_size=200).map("".join),
    st.tuples(_PIECES, st.integers(1, 20_000)).map(lambda p: p[0] * p[1]),
)


def _timed(raw: str, truncated: bool = False):
    start = time.thread_time()
    parsed = parse_answer(raw, truncated=truncated)
    return parsed, time.thread_time() - start


@settings(max_examples=300, deadline=None)
@given(raw=_TEXT, truncated=st.booleans())
def test_any_text_parses_without_exception_into_storable_text(raw, truncated):
    parsed, seconds = _timed(raw, truncated)
    assert seconds < BUDGET_S
    assert parsed.status in set(ResponseStatus)
    assert parsed.parse_ok == (parsed.status == ResponseStatus.OK)
    assert (parsed.error is None) == parsed.parse_ok
    stored = [parsed.diagram_is or "", *parsed.notes, parsed.error or ""]
    stored += [
        x for label in parsed.labels for x in (label.name, label.location_hint, label.marker)
    ]
    for text in stored:
        text.encode("utf-8")  # no lone surrogate reaches the store
    assert all(label.name for label in parsed.labels)


def test_megabyte_floods_and_deep_nesting_are_bounded():
    size = 1_000_000
    for raw in (
        "{" * size,
        "[" * size,
        "[" * (size // 2) + "]" * (size // 2),
        '{"a":' * (size // 5),
        "{}" * (size // 2),
        "[" + '"a",' * (size // 4),
        "\ud800" * size,
        "- aorta\n" * (size // 8),
    ):
        parsed, seconds = _timed(raw)
        assert seconds < BUDGET_S, raw[:20]
        assert isinstance(parsed.labels, list)


def test_time_grows_linearly_not_quadratically():
    def best(raw: str) -> float:
        return min(_timed(raw)[1] for _ in range(5))

    small, big = "[" + "'a', " * 500, "[" + "'a', " * 16_000  # 32x, below the token limit
    assert len(parse_answer(big).labels) == 16_000
    # Linear is 32x; quadratic would be ~1000x. 8x slack absorbs a busy shared machine.
    assert best(big) < best(small) * 32 * 8


def test_nesting_past_the_limit_is_skipped_and_the_answer_after_it_read():
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    parsed = parse_answer(deep + " then {'labels': ['aorta']}")
    assert [x.name for x in parsed.labels] == ["aorta"] and parsed.parse_ok
    assert any("nested deeper than" in n for n in parsed.notes)
    wrapped = "{'a': " * (MAX_DEPTH - 2) + "{'labels': ['aorta']}" + "}" * (MAX_DEPTH - 2)
    parsed = parse_answer(wrapped)
    assert [x.name for x in parsed.labels] == ["aorta"] and parsed.parse_ok
    assert not any("nested deeper than" in n for n in parsed.notes)
