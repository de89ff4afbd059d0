"""Suggestions: near misses and frequent unmatched names, ranked by evidence."""

from rapidfuzz import fuzz

from labeler.lexicon import Lexicon
from labeler.scoring import score_names
from labeler.scoring.rescore import rescore_rows
from labeler.suggestions import suggest

KEY = ["esophagus", "stomach", "pancreas", "duodenum"]
ROWS = [
    ("I1", "m1", "told", ["sophagus", "stomach", "liver thing"], KEY),
    ("I1", "m2", "told", ["Sophagus", "stomach", "kidney"], KEY),
    ("I1", "m3", "blind", ["sophagus", "stomach"], KEY),
    ("I1", "m2", "desc", ["gut tube", "stomach"], KEY),
    ("I1", "m3", "desc", ["gut tube", "stomach"], KEY),
    ("I2", "m1", "told", ["duodenom"], ["duodenum", "ileum"]),  # fuzzy match: nothing to suggest
    ("I3", "m1", "told", ["ilium"], ["ileum", "jejunum"]),
]


def test_near_misses_and_frequent_names_ranked_by_evidence():
    found = suggest(ROWS, Lexicon())
    assert [(s.pred, s.key) for s in found] == [
        (
            "sophagus",
            "esophagus",
        ),  # 3 models, near (0.941) but first-3 guard (a dropped first letter)
        ("gut tube", "duodenum"),  # 2 models, frequent; paired with its most similar missed key
        ("ilium", "ileum"),  # 1 model, near: fails the 7-character guard
    ]
    top = found[0]
    assert (top.n_models, top.n_answers, top.n_items, top.near) == (3, 3, 1, True)
    assert top.models == ("m1", "m2", "m3") and top.rows == (0, 1, 2)
    assert found[1].near is False and found[1].n_models == 2
    assert fuzz.ratio("gut tube", "duodenum") > fuzz.ratio("gut tube", "esophagus")


def test_distinct_rows_silence_a_suggestion():
    lexicon = Lexicon.from_rows([("ileum", "ilium", "distinct")])
    assert ("ilium", "ileum") not in [(s.pred, s.key) for s in suggest(ROWS, lexicon)]


def test_promotion_rescores_and_undoes():
    lexicon = Lexicon()
    top = suggest(ROWS, lexicon)[0]
    rows = [{"predicted_names": p, "key_names": k} for *_, p, k in ROWS]
    before = [rescore_rows([rows[i]], lexicon)[0]["f1"] for i in top.rows]
    undo = lexicon.add(top.key, top.pred, "same")  # what promoting a suggestion writes
    after = [rescore_rows([rows[i]], lexicon)[0]["f1"] for i in top.rows]
    assert all(a > b for a, b in zip(after, before, strict=True))
    assert score_names(["sophagus"], ["esophagus"], lexicon).matches[0].how == "synonym"
    lexicon.apply(undo)
    assert score_names(["sophagus"], ["esophagus"], lexicon).f1 == 0.0
    assert suggest(ROWS, lexicon)[0].pred == "sophagus"
