"""Mutated model answers through parse, score and the store: never an exception, never a
score outside [0, 1], every answer storable.

Hypothesis mutates a well-formed answer (truncation, deletions, insertions of arbitrary
text including lone surrogates and NULs, swapped brackets, duplication) with a bounded
number of examples, so the suite stays within its time budget.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeler.data import STARTER_LEXICON, data_file
from labeler.lexicon import Lexicon
from labeler.runs.parse import parse_answer
from labeler.scoring import score_names
from labeler.store import NewItem, NewResponse, Project

KEY = ["aorta", "left ventricle", "right atrium", "pulmonary artery", "mitral valve"]
GOOD = json.dumps(
    {
        "diagram_is": "the human heart",
        "labels": [{"name": n, "location_hint": "upper left"} for n in KEY[:4]]
        + [{"name": "bicuspid valve", "location_hint": "centre"}],
    }
)
LEXICON = Lexicon.from_csv(data_file(STARTER_LEXICON))
EXAMPLES = 400

anything = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=()),
    max_size=40,
)


@st.composite
def mutated(draw):
    text = draw(st.sampled_from([GOOD, f"```json\n{GOOD}\n```", f"Sure! Here it is: {GOOD} ok"]))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["truncate", "delete", "insert", "swap", "repeat"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "truncate":
            text = text[:at]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)) :]
        elif kind == "insert":
            text = text[:at] + draw(anything) + text[at:]
        elif kind == "swap":
            text = text.translate(str.maketrans("{}[]", "[]{}"))
        else:
            text = text[:at] + text[at : at + 30] * draw(st.integers(2, 50)) + text[at:]
    return text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=mutated(), truncated=st.booleans())
def test_parse_and_score_survive_any_mutated_answer(raw, truncated):
    answer = parse_answer(raw, truncated)
    assert answer.parse_ok in (True, False)
    assert answer.parse_ok or answer.error
    names = [label.name for label in answer.labels]
    score = score_names(names, KEY, LEXICON)
    assert 0.0 <= score.precision <= 1.0 and 0.0 <= score.recall <= 1.0
    assert 0.0 <= score.f1 <= 1.0
    if truncated:
        assert not answer.parse_ok


def test_a_clean_answer_still_scores_full_marks_through_the_synonym():
    answer = parse_answer(GOOD)
    score = score_names([label.name for label in answer.labels], KEY, LEXICON)
    assert answer.parse_ok and score.f1 == 1.0  # bicuspid valve = mitral valve


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=mutated())
def test_every_mutated_answer_can_be_stored_as_received(tmp_path_factory, raw):
    """What the runner stores for a hostile answer (lone surrogates replaced, as
    ``runner._storable`` does) round-trips through SQLite."""
    from labeler.runs.runner import _storable

    folder = tmp_path_factory.mktemp("p")
    with Project.create(folder, name="m") as project:
        project.items.add(NewItem(item_id="heart", subject="the human heart", key=[]))
        answer = parse_answer(raw)
        project.responses.record(
            NewResponse(
                item_id="heart",
                model="m",
                condition="told",
                request_hash="h",
                status="ok" if answer.parse_ok else "parse_error",
                raw_text=_storable(raw),
                labels=[{"name": _storable(label.name) or ""} for label in answer.labels],
                parse_ok=answer.parse_ok,
                error=answer.error,
            )
        )
        (stored,) = project.responses.latest()
        assert stored.raw_text == _storable(raw)
        assert project.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
