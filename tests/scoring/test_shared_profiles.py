"""Per-item lexicons share the no-lexicon profile of every name they do not reach.

``cache._Cache.name`` takes a name's profile from the empty lexicon's cache when the
index knows none of the singular readings the profile looked up (``_Name.lookups``).
That is sound only if those lookups are the index's whole say in a profile, so here
every shared profile must equal the profile read directly against the item's own
lexicon, under both rule sets, for global and per-item rows drawn over a vocabulary
dense in plural chains, synonym rows that merge two global groups and ``distinct``
vetoes; and whole scores through the layered lexicon must equal the cache-free
reference scorer (card rules) and a lexicon built from all rows at once (expert).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.errors import ConfigError
from labeler.lexicon import Lexicon, LexiconRow
from labeler.scoring import cache, profiles, score_counts, score_names
from tests.scoring import reference_impl

TERMS = [
    "atrium", "atria", "ganglion", "ganglia", "cortex", "nucleus", "nucleolus", "nuclei",
    "mitral valve", "bicuspid valve", "left AV valve", "bicuspid valves", "stoma", "stomata",
    "trachea", "windpipe", "alveolus", "air sac", "left ventricle", "ventricule",
]  # fmt: skip
SURFACES = [
    *TERMS, "Atria", "the atrium", "air sacs", "Windpipes", "left ventricles", "left ventricel",
    "nucleoli", "cortices", "left/right atrium", "B: trachea", "ganglion (or ganglia)",
    "aorta", "vena cava", "mitral valves", "stomas", "cardiomyocyte",
]  # fmt: skip
ROWS = st.lists(
    st.builds(
        LexiconRow,
        st.sampled_from(TERMS),
        st.sampled_from(TERMS),
        st.sampled_from(["same", "same", "distinct"]),
    ),
    max_size=6,
)
NAMES = st.lists(st.sampled_from(SURFACES), max_size=6)


def lexicon(rows: list[LexiconRow]) -> Lexicon | None:
    try:
        return Lexicon(rows)
    except ConfigError:
        return None


@settings(max_examples=300, deadline=None)
@given(ROWS, ROWS, NAMES, NAMES)
def test_shared_profiles_equal_profiles_read_against_the_item_lexicon(
    global_rows, item_rows, predicted, key
):
    base = lexicon(global_rows)
    if base is None or lexicon([*base.rows(), *item_rows]) is None:
        return  # a conflicting lexicon never loads
    item = base.with_rows(item_rows)
    for rules in ("card", "expert"):
        for lex in (base, item):
            memo = cache._cache(lex, rules)
            for raw in [*predicted, *key]:
                assert memo.name(raw) == profiles._PROFILES[rules](raw, lex.index), (raw, rules)
    expected = reference_impl.score_names(predicted, key, Lexicon([*base.rows(), *item_rows]))
    assert score_names(predicted, key, item, rules="card") == expected
    rebuilt = Lexicon([*base.rows(), *item_rows])
    assert score_counts(predicted, key, item) == score_counts(predicted, key, rebuilt)


def test_a_name_an_item_row_reaches_is_profiled_against_that_item():
    base = Lexicon.from_rows([("trachea", "windpipe", "")])
    item = base.with_rows([("alveolus", "air sac", "")])
    plain = cache._cache(None, "expert")
    assert plain.name("air sacs").groups == frozenset()
    assert cache._cache(item, "expert").name("air sacs").groups  # not the shared profile
    assert cache._cache(item, "expert").name("aorta") is plain.name("aorta")  # shared
    assert score_names(["air sacs"], ["alveoli"], item).f1 == 1.0
    assert score_names(["air sacs"], ["alveoli"], base).f1 == 0.0


@settings(max_examples=300, deadline=None)
@given(ROWS, ROWS, NAMES)
def test_a_regrouped_profile_is_the_profile_read_afresh_token_order_included(
    global_rows, item_rows, names
):
    """``profiles._regrouped`` adds an item lexicon's groups to the no-lexicon profile
    instead of reading the surface again: it must build the very profile the profile
    functions build, down to the order of its tokens (the order edges are found in)."""
    base = lexicon(global_rows)
    if base is None or lexicon([*base.rows(), *item_rows]) is None:
        return
    item = base.with_rows(item_rows)
    for rules in ("card", "expert"):
        plain = cache._cache(None, rules)
        for raw in names:
            shared = plain.name(raw)
            regrouped = profiles._regrouped(shared, item.index.groups(shared.lookups), rules)
            direct = profiles._PROFILES[rules](raw, item.index)
            assert regrouped == direct, (raw, rules)
            assert list(regrouped.strength) == list(direct.strength), (raw, rules)
