"""``rules="card"``: the memoised matcher gives exactly the reference matcher's NameScore.

``reference_impl`` is the straightforward scorer as it stood before the speed
work (no caches at all). Every field must agree — F1, precision, recall,
counts, each match with its level, unmatched and missed names in order — on
hypothesis-drawn answers over a vocabulary dense in plural chains, synonyms,
distinct pairs and fuzzy neighbours, and on the bench's generated rows. Each
answer is scored twice so the warm (memo-hit) path is compared too.
"""

import importlib.util
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.lexicon import Lexicon, load_starter
from labeler.scoring import score_counts, score_names
from tests.scoring import reference_impl

STARTER = load_starter()
CHAINS = Lexicon.from_rows(
    [
        ("mitral valve", "bicuspid valve", ""),
        ("bicuspid valves", "left AV valve", ""),
        ("atrion", "ganglion", ""),
        ("stoma", "cortex", ""),
        ("alveolum", "nuclei", ""),
        ("nucleus", "nucleolus", "distinct"),
        ("cardiomyocyte", "heart muscle cell", ""),
        ("ventricle", "ventricule", "distinct"),
    ]
)
VOCABULARY = [
    "atria", "atrium", "atrion", "Atria", "the atrium", "ganglia", "ganglion", "ganglium",
    "cortex", "cortices", "cortexes", "nucleus", "nucleolus", "nuclei", "Nucleus.",
    "ventricle", "ventricles", "ventricule", "left ventricle", "left ventricel",
    "left ventricles", "mitral valve", "bicuspid valve", "left AV valve", "bicuspid valves",
    "stomata", "stoma", "stomas", "testes", "testis", "alveoli", "alveolus", "alveolum",
    "loop of Henle", "Henle's loop", "henle loop", "cardiomyocyte", "cardiomyocite",
    "heart muscle cell", "heart muscel cell", "ileum", "ilium", "oesophagus", "esophagus",
    "mitochondrion", "mitochondrian", "mitochondria", "", "  ", "...", " aorta ",
]  # fmt: skip
NAMES = st.sampled_from(VOCABULARY) | st.text(alphabet="aeinrstuv -'", max_size=14)
LEXICONS = st.sampled_from([None, STARTER, CHAINS])


def assert_same(predicted, key, lexicon):
    expected = reference_impl.score_names(predicted, key, lexicon)
    assert score_names(predicted, key, lexicon, rules="card") == expected
    assert score_names(predicted, key, lexicon, rules="card") == expected  # warm: memo hits
    numbers = (expected.f1, expected.precision, expected.recall, expected.n_pred, expected.n_key)
    assert score_counts(predicted, key, lexicon, rules="card") == numbers


@settings(max_examples=400, deadline=None)
@given(st.lists(NAMES, max_size=9), st.lists(NAMES, max_size=9), LEXICONS)
def test_same_score_as_the_reference(predicted, key, lexicon):
    assert_same(predicted, key, lexicon)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(NAMES, max_size=7), min_size=2, max_size=6), LEXICONS)
def test_same_score_when_answers_share_one_key(answers, lexicon):
    # many answers against one prepared key: the memo fills from several answers
    key = answers[0]
    for predicted in answers[1:]:
        assert_same(predicted, key, lexicon)


def test_same_score_on_the_bench_rows():
    path = Path(__file__).resolve().parents[2] / "bench" / "score.py"
    spec = importlib.util.spec_from_file_location("bench_score", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows, lexicon = bench.build(seed=11)
    hows = set()
    for predicted, key in rows[:1500]:
        expected = reference_impl.score_names(predicted, key, lexicon)
        assert score_names(predicted, key, lexicon, rules="card") == expected
        hows.update(m.how for m in expected.matches)
    assert hows == {"exact", "normalized", "plural", "synonym", "fuzzy"}
