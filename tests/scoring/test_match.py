"""score_names: every rule of the card, its own examples, and property tests."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from labeler.lexicon import Lexicon, load_starter
from labeler.scoring import Match, NameScore, score_names
from labeler.scoring.fuzzy import fuzzy_similar
from labeler.scoring.match import equivalence_classes, score_counts, score_counts_many

STARTER = load_starter()


@pytest.fixture
def starter() -> Lexicon:
    return STARTER


def hows(result: NameScore) -> dict[str, str]:
    return {m.pred: m.how for m in result.matches}


# -- the card's own examples -------------------------------------------------------


def test_card_examples_with_the_starter_lexicon(starter):
    result = score_names(
        ["Henle's loop", "alveoli", "bicuspid valve", "atria"],
        ["loop of Henle", "alveolus", "mitral valve", "atrium"],
        starter,
    )
    assert result.f1 == 1.0
    assert hows(result) == {
        "Henle's loop": "normalized",
        "alveoli": "plural",
        "bicuspid valve": "synonym",
        "atria": "plural",
    }


def test_mitral_bicuspid_left_av_are_one_group(starter):
    for a, b in itertools.permutations(["mitral valve", "bicuspid valve", "left AV valve"], 2):
        assert score_names([a], [b], starter).matches == [Match(a, b, "synonym")]


def test_nucleus_nucleolus_pass_the_card_guards_at_0875_but_distinct_vetoes(starter):
    assert fuzz.ratio("nucleus", "nucleolus") / 100 == 0.875
    assert score_names(["nucleolus"], ["nucleus"], rules="card").matches == [
        Match("nucleolus", "nucleus", "fuzzy")
    ]
    assert score_names(["nucleolus"], ["nucleus"]).f1 == 0.0  # expert: two letters, no typo
    vetoed = score_names(["nucleolus"], ["nucleus"], starter)
    assert vetoed.f1 == 0.0
    assert vetoed.unmatched_pred == ["nucleolus"] and vetoed.missed_key == ["nucleus"]
    own = Lexicon.from_rows([("nucleus", "nucleolus", "distinct")])
    assert score_names(["nucleolus"], ["nucleus"], own).f1 == 0.0


def test_starter_distinct_pairs_never_match(starter):
    for a, b in [("ileum", "ilium"), ("ureter", "urethra"), ("nucleus", "nucleolus")]:
        assert score_names([a], [b], starter).f1 == 0.0
        assert score_names([b], [a], starter).f1 == 0.0


def test_spelling_variants_from_the_starter_lexicon(starter):
    pred, key = ["oesophagus", "haemoglobin"], ["esophagus", "hemoglobin"]
    result = score_names(pred, key, starter, rules="card")
    assert result.f1 == 1.0 and set(hows(result).values()) == {"synonym"}
    expert = score_names(pred, key)  # the expert rules need no lexicon row for spelling
    assert expert.f1 == 1.0 and {m.rule for m in expert.matches} == {"british spelling"}


# -- levels -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pred", "key", "how"),
    [
        ("aorta", "aorta", "exact"),
        ("Aorta", "aorta", "normalized"),
        ("the aorta.", "aorta", "normalized"),
        ("semi-lunar valve", "semi lunar valve", "normalized"),
        ("loop of Henle", "Henle loop", "normalized"),
        ("vertebrae", "vertebra", "plural"),
        ("ganglion", "ganglia", "plural"),
        ("cortices", "cortex", "plural"),
        ("foramina", "foramen", "plural"),
        ("phalanges", "phalanx", "plural"),
        ("testes", "testis", "plural"),
        ("pulmonary veins", "pulmonary vein", "plural"),
        ("mitochondrian", "mitochondrion", "fuzzy"),
        ("endoplasmic reticulm", "endoplasmic reticulum", "fuzzy"),
    ],
)
def test_level_of_each_rule(pred, key, how):
    result = score_names([pred], [key])
    assert result.matches == [Match(pred, key, how)]
    assert result.f1 == 1.0


def test_synonyms_combine_with_plurals():
    lexicon = Lexicon.from_rows([("mitral valve", "bicuspid valve", "")])
    assert hows(score_names(["bicuspid valves"], ["mitral valve"], lexicon)) == {
        "bicuspid valves": "synonym"
    }


def test_synonym_groups_are_transitive_across_rows_and_plurals():
    lexicon = Lexicon.from_rows(
        [("mitral valve", "bicuspid valve", "same"), ("bicuspid valves", "left AV valve", "same")]
    )
    assert score_names(["left AV valve"], ["mitral valve"], lexicon).f1 == 1.0


@pytest.mark.parametrize(
    ("pred", "key", "why"),
    [
        ("stomachs", "stomata", "no shared singular"),
        ("mitochondrium", "mitochondrion", "similarity 0.846 < 0.86"),
        ("atrium", "atrial", "both < 7 characters"),
        ("oesophagus", "esophagus", "first 3 characters differ"),
        ("ventricle", "ventricular septum", "length difference > 3"),
        ("epithelium", "epithelial cells", "length difference > 3"),
        ("capillary", "capitulum", "similarity < 0.86"),
    ],
)
def test_card_fuzzy_guards_reject(pred, key, why):
    assert score_names([pred], [key], rules="card").f1 == 0.0, why


def test_surrounding_whitespace_is_still_exact_and_reported_trimmed():
    assert score_names(["  aorta "], ["aorta"]).matches == [Match("aorta", "aorta", "exact")]


def test_fuzzy_guard_boundaries():
    assert fuzzy_similar("abcdefg", "abcdefgx")  # 7 chars, diff 1, ratio 0.933
    assert not fuzzy_similar("abcdef", "abcdefx")  # 6 chars
    assert fuzzy_similar("abcdefghijklmnop", "abcdefghijklmnopqrs")  # diff 3, 0.914
    assert not fuzzy_similar("abcdefghijklmnop", "abcdefghijklmnopqrst")  # diff 4
    assert not fuzzy_similar("xbcdefghij", "abcdefghij")  # first 3 differ


# -- sets, matching, F1 -------------------------------------------------------------


def test_equivalent_predictions_count_once():
    result = score_names(["alveolus", "alveoli", "Alveoli", "the alveolus"], ["alveolus"])
    assert (result.n_pred, result.f1) == (1, 1.0)


def test_equivalent_key_names_count_once():
    result = score_names(["atrium"], ["atrium", "atria", "Atrium"])
    assert (result.n_key, result.f1) == (1, 1.0)


@pytest.mark.parametrize("order", list(itertools.permutations(["atrium", "atrion", "atria"])))
def test_equivalence_is_transitive_in_any_order(order):
    # atria reads as atrium or atrion; atrium and atrion only meet through it
    assert score_names(list(order), ["atrium"]).n_pred == 1
    assert score_names(["atrium"], list(order)).n_key == 1


def test_fuzzy_near_names_are_not_merged_as_duplicates():
    result = score_names(["nucleus", "nucleolus"], ["nucleus", "nucleolus"])
    assert (result.n_pred, result.n_key, result.f1) == (2, 2, 1.0)


def test_one_key_name_is_matched_at_most_once():
    result = score_names(["left ventricle", "left ventricel"], ["left ventricle"])
    assert len(result.matches) == 1 and result.matches[0].how == "exact"
    assert result.unmatched_pred == ["left ventricel"]
    assert result.precision == 0.5 and result.recall == 1.0


def test_matching_is_maximum_not_greedy():
    # A=cardiomyocyte: synonym of K1, fuzzy to K2. B: only fuzzy to K1.
    # Greedy-by-strength takes A->K1 and strands B; the maximum matching uses both.
    lexicon = Lexicon.from_rows([("heart muscle cell", "cardiomyocyte", "same")])
    result = score_names(
        ["cardiomyocyte", "heart muscel cell"], ["heart muscle cell", "cardiomyocite"], lexicon
    )
    assert result.f1 == 1.0
    assert sorted((m.pred, m.key, m.how) for m in result.matches) == [
        ("cardiomyocyte", "cardiomyocite", "fuzzy"),
        ("heart muscel cell", "heart muscle cell", "fuzzy"),
    ]


def test_matching_prefers_the_stronger_level_when_size_is_equal():
    result = score_names(["left ventricles"], ["left ventricle", "left ventricule"])
    assert result.matches == [Match("left ventricles", "left ventricle", "plural")]


def test_f1_formula_and_counts():
    result = score_names(["aorta", "vena cava", "liver", "spleen"], ["aorta", "vena cava", "heart"])
    assert (result.n_pred, result.n_key, len(result.matches)) == (4, 3, 2)
    assert result.precision == 0.5 and result.recall == pytest.approx(2 / 3)
    assert result.f1 == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    assert result.unmatched_pred == ["liver", "spleen"] and result.missed_key == ["heart"]


@pytest.mark.parametrize("pred", [[], [""], ["  ", "..."]])
def test_empty_prediction_scores_zero(pred):
    result = score_names(pred, ["aorta"])
    assert (result.f1, result.precision, result.recall, result.n_pred) == (0.0, 0.0, 0.0, 0)
    assert result.missed_key == ["aorta"]


def test_empty_key_scores_zero():
    assert score_names(["aorta"], []).f1 == 0.0


def test_lexicon_edit_changes_the_next_score():
    lexicon = Lexicon()
    assert score_names(["gullet"], ["oesophagus"], lexicon).f1 == 0.0
    undo = lexicon.add("oesophagus", "gullet")
    assert score_names(["gullet"], ["oesophagus"], lexicon).f1 == 1.0
    lexicon.apply(undo)
    assert score_names(["gullet"], ["oesophagus"], lexicon).f1 == 0.0


# -- properties ---------------------------------------------------------------------

NAMES = st.sampled_from(
    [
        "aorta",
        "Aorta",
        "atria",
        "atrium",
        "left atrium",
        "nucleus",
        "nucleolus",
        "vena cava",
        "loop of Henle",
        "Henle's loop",
        "alveoli",
        "mitral valve",
        "bicuspid valve",
        "cortex",
        "cortices",
        "ventricle",
        "left ventricle",
        "",
        "the lens",
        "atrion",
        "ganglia",
        "ganglion",
        "ganglium",
    ]
) | st.text(max_size=20)


@settings(max_examples=200, deadline=None)
@given(st.lists(NAMES, max_size=8), st.lists(NAMES, max_size=8), st.randoms())
def test_f1_bounded_and_order_invariant(pred, key, rnd):
    # the vocabulary holds chains (atrium ~ atria ~ atrion) that only a transitive
    # grouping counts the same way in every order
    lexicon = STARTER
    result = score_names(pred, key, lexicon)
    assert 0.0 <= result.f1 <= 1.0
    assert 0.0 <= result.precision <= 1.0 and 0.0 <= result.recall <= 1.0
    assert len(result.matches) + len(result.unmatched_pred) == result.n_pred
    assert len(result.matches) + len(result.missed_key) == result.n_key
    shuffled_pred, shuffled_key = list(pred), list(key)
    rnd.shuffle(shuffled_pred)
    rnd.shuffle(shuffled_key)
    again = score_names(shuffled_pred, shuffled_key, lexicon)
    assert again.f1 == pytest.approx(result.f1)
    assert (again.n_pred, again.n_key) == (result.n_pred, result.n_key)


@settings(max_examples=200, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=8))
def test_identical_sets_score_one(names):
    result = score_names(names, list(names), STARTER)
    assert result.f1 == (1.0 if result.n_pred else 0.0)


LETTERS_A = st.text(alphabet="bcdfg", min_size=1, max_size=12).map(lambda s: "q" + s)
LETTERS_B = st.text(alphabet="hjklm", min_size=1, max_size=12).map(lambda s: "z" + s)


@settings(max_examples=200, deadline=None)
@given(st.lists(LETTERS_A, min_size=1, max_size=8), st.lists(LETTERS_B, min_size=1, max_size=8))
def test_disjoint_sets_score_zero(pred, key):
    result = score_names(pred, key)
    assert result.f1 == 0.0 and not result.matches


def test_equivalence_classes_exclude_fuzzy_and_blank():
    names = ["Aorta", "the aorta", "", "nucleus", "nucleolus", "alveoli", "alveolus"]
    assert equivalence_classes(names) == [0, 0, -1, 1, 2, 3, 3]
    lexicon = Lexicon.from_rows([("gullet", "oesophagus", "")])
    assert equivalence_classes(["oesophagus", "gullets"], lexicon) == [0, 0]


# -- batch scoring -----------------------------------------------------------------


@pytest.mark.parametrize("rules", ["card", "expert"])
def test_score_counts_many_gives_each_pairs_own_score(starter, rules):
    """The batch scores every (answer, key) pair exactly as one score_counts call does:
    synonyms, plurals, fuzzy typos, equivalent predictions that count once, a hedge,
    an empty answer, and an answer met by several keys (read once, scored per key)."""
    answers = [
        ["Henle's loop", "alveoli", "bicuspid valve", "atria"],
        ["alveolus", "alveoli", "mitochondrian"],
        ["left/right atrium", "aorta"],
        [],
        ["  ", "nucleus", "nucleolus"],
    ]
    keys = [
        ["loop of Henle", "alveolus", "mitral valve", "atrium"],
        ["mitochondrion", "alveolus", "nucleus"],
        ["left atrium", "right atrium", "aorta"],
    ]
    pairs = [(a, k) for a in range(len(answers)) for k in range(len(keys))] + [(0, 0), (4, 1)]
    many = score_counts_many(answers, keys, pairs, starter, rules=rules)
    one = [score_counts(answers[a], keys[k], starter, rules=rules) for a, k in pairs]
    assert many == one
    assert many[0] == (1.0, 1.0, 1.0, 4, 4)  # the card's example: every name matched
    assert many[len(keys) * 3][3] == 0  # the empty answer predicts nothing
