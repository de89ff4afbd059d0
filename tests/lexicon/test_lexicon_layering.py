"""Item lexicons layered on the global index equal a rebuild from all rows.

``Lexicon.with_rows`` / ``merge`` index only the new rows on top of the base
index; the result must be the very tables a fresh ``Lexicon(all rows)`` builds:
the same forms, the same group id for each, the same distinct pairs, the same
conflict error — and so the same score for every answer. The base must come out
unchanged, however many items are layered on it.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.errors import ConfigError
from labeler.lexicon import Lexicon, LexiconRow, load_starter
from labeler.scoring import score_names
from tests.scoring import reference_impl

TERMS = [
    "atrium", "atria", "atrion", "ganglion", "ganglia", "cortex", "cortices", "nucleus",
    "nucleolus", "nuclei", "mitral valve", "bicuspid valve", "left AV valve", "bicuspid valves",
    "stoma", "stomata", "aorta", "vena cava", "windpipe", "trachea", "Henle's loop", "loop",
]  # fmt: skip
TERM = st.sampled_from(TERMS)
ROWS = st.lists(
    st.builds(LexiconRow, TERM, TERM, st.sampled_from(["same", "same", "distinct"])), max_size=8
)


def tables(lexicon: Lexicon) -> tuple[dict[str, frozenset[int]], frozenset]:
    index = lexicon.index
    return {f: index.groups(frozenset((f,))) for f in index._parent}, index.distinct


def build(rows):
    try:
        return Lexicon(rows), None
    except ConfigError as exc:
        return None, str(exc)


@settings(max_examples=300, deadline=None)
@given(
    ROWS,
    ROWS,
    st.lists(st.sampled_from(TERMS), max_size=5),
    st.lists(st.sampled_from(TERMS), max_size=5),
)
def test_layered_equals_rebuilt(base_rows, item_rows, predicted, key):  # fmt: skip
    base, error = build(base_rows)
    if base is None:
        return  # a conflicting global lexicon never loads
    before = tables(base)
    rebuilt, error = build([*base.rows(), *item_rows])
    if error is not None:
        _, item_error = build(item_rows)  # the item's own rows are checked first, alone
        with pytest.raises(ConfigError) as raised:
            base.with_rows(item_rows)
        assert str(raised.value) == (item_error or error)
    else:
        layered = base.with_rows(item_rows)
        assert layered.rows() == rebuilt.rows()
        assert tables(layered) == tables(rebuilt)
        expected = reference_impl.score_names(predicted, key, rebuilt)
        assert score_names(predicted, key, layered, rules="card") == expected
    assert tables(base) == before


def test_layering_on_the_starter_lexicon_touches_only_the_item():
    starter = load_starter()
    before = tables(starter)
    item = starter.with_rows([("alveolus", "air sac", ""), ("air sacs", "lung bubble", "")])
    assert tables(item) == tables(Lexicon([*starter.rows(), *item.rows()[len(starter) :]]))
    assert score_names(["lung bubbles"], ["alveoli"], item).matches[0].how == "synonym"
    assert score_names(["lung bubbles"], ["alveoli"], starter).f1 == 0.0
    assert tables(starter) == before
    with pytest.raises(ConfigError, match="distinct"):
        starter.with_rows([("nucleus", "nucleolus", "same")])
