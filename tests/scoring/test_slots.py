"""Slot accuracy, graded as a grader would (cases written before the scorer was run).

The key is the sample heart in slot order. Each case is an answer as the parser stores it
(``name``, ``location_hint``, ``marker``: the number the answer attached) and the marks a
grader counts as right; the accuracy is then right / 6, written here by hand.
"""

from __future__ import annotations

import pytest

from labeler.lexicon import Lexicon, load_starter
from labeler.scoring import score_names
from labeler.scoring.markers import marker_accuracy
from labeler.scoring.slots import chance_accuracy, slot_accuracy

KEY = {
    "1": "Aorta",
    "2": "Right atrium",
    "3": "Left atrium",
    "4": "Mitral valve",
    "5": "Right ventricle",
    "6": "Left ventricle",
}
RIGHT = [(name, "", mark) for mark, name in KEY.items()]


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return load_starter()


def _answer(*pairs: tuple[str, str]) -> list[tuple[str, str, str]]:
    return [(name, "", mark) for mark, name in pairs]


GOLD = [
    # (case, answer, marks a grader counts right, unanswered, extra, repeated)
    ("all right", RIGHT, "123456", "", "", ""),
    (
        "atria swapped",
        _answer(
            ("1", "Aorta"),
            ("2", "Left atrium"),
            ("3", "Right atrium"),
            ("4", "Mitral valve"),
            ("5", "Right ventricle"),
            ("6", "Left ventricle"),
        ),
        "1456",
        "",
        "",
        "",
    ),
    (
        "every name shifted by one",
        _answer(
            ("1", "Right atrium"),
            ("2", "Left atrium"),
            ("3", "Mitral valve"),
            ("4", "Right ventricle"),
            ("5", "Left ventricle"),
            ("6", "Aorta"),
        ),
        "",
        "",
        "",
        "",
    ),
    (
        "ventricles missing",
        _answer(("1", "Aorta"), ("2", "Right atrium"), ("3", "Left atrium"), ("4", "Mitral valve")),
        "1234",
        "56",
        "",
        "",
    ),
    (
        "number 3 twice, right name first: the first one counts",
        _answer(
            ("1", "Aorta"),
            ("2", "Right atrium"),
            ("3", "Left atrium"),
            ("3", "Right atrium"),
            ("4", "Mitral valve"),
        ),
        "1234",
        "56",
        "",
        "3",
    ),
    (
        "number 3 twice, wrong name first: no hedging",
        _answer(("3", "Right atrium"), ("3", "Left atrium")),
        "",
        "12456",
        "",
        "3",
    ),
    (
        "an extra number 7 is not a slot and costs nothing",
        [*RIGHT, ("Pulmonary artery", "", "7")],
        "123456",
        "",
        "7",
        "",
    ),
    (
        "synonyms, articles, capitals and plurals as in name-set F1",
        _answer(
            ("1", "the aorta"),
            ("2", "RIGHT ATRIUM"),
            ("3", "left atria"),
            ("4", "Bicuspid valve"),
            ("5", "right ventricles"),
            ("6", "Tricuspid valve"),
        ),
        "12345",
        "",
        "",
        "",
    ),
    (
        "numbers written in the name or the hint, not in a field",
        [
            ("1: Aorta", "", ""),
            ("Right atrium (2)", "", ""),
            ("Left atrium", "at 3", ""),
            ("Mitral valve", "upper right", ""),
        ],
        "123",
        "456",
        "",
        "",
    ),
    (
        "one name at every number",
        _answer(*((m, "Heart") for m in KEY)),
        "",
        "",
        "",
        "",
    ),
    ("no answer", [], "", "123456", "", ""),
]


@pytest.mark.parametrize(
    ("answer", "right", "unanswered", "extra", "repeated"),
    [case[1:] for case in GOLD],
    ids=[case[0] for case in GOLD],
)
def test_graded_cases(lexicon, answer, right, unanswered, extra, repeated):
    score = slot_accuracy(answer, KEY, lexicon)
    assert score.n_slots == 6
    assert score.correct == list(right)
    assert score.unanswered == list(unanswered)
    assert score.extra == tuple(extra)
    assert score.repeated == tuple(repeated)
    assert score.accuracy == pytest.approx(len(right) / 6)
    wrong = {m for m in KEY if m not in right and m not in unanswered}
    assert set(score.wrong) == wrong


def test_every_slot_is_explained(lexicon):
    answer = _answer(("1", "the aorta"), ("2", "Left atrium"), ("4", "Bicuspid valve"))
    score = slot_accuracy(answer, KEY, lexicon)
    why = {v.mark: v for v in score.verdicts}
    assert [v.mark for v in score.verdicts] == list(KEY)
    assert why["1"].correct and why["1"].given == "the aorta" and "Aorta" in why["1"].why
    assert not why["2"].correct and "Left atrium" in why["2"].why and "Right atrium" in why["2"].why
    assert why["3"].given is None and "no name" in why["3"].why
    assert why["4"].correct and "synonym" in why["4"].why


def test_a_key_alternative_counts_at_its_slot():
    key = {"1": "Tympanic membrane", "2": "Cochlea"}
    alternatives = Lexicon.from_rows([("Tympanic membrane", "eardrum", "same")])
    score = slot_accuracy(_answer(("1", "eardrum"), ("2", "cochlea")), key, alternatives)
    assert score.accuracy == 1.0


def test_name_set_f1_of_a_swapped_answer_is_perfect_while_slots_are_not(lexicon):
    swapped = GOLD[1][1]
    names = [name for name, _, _ in swapped]
    assert score_names(names, list(KEY.values()), lexicon).f1 == 1.0
    assert slot_accuracy(swapped, KEY, lexicon).accuracy == pytest.approx(4 / 6)


def test_chance_is_the_expected_accuracy_of_the_same_names_placed_at_random(lexicon):
    # Six right names at random places: each lands on its own slot with probability 1/6.
    assert chance_accuracy(RIGHT, KEY, lexicon) == pytest.approx(1 / 6)
    # Three right names and three wrong ones: 3 × 1/6 right slots expected, of 6.
    half = _answer(("1", "Aorta"), ("2", "Right atrium"), ("3", "Left atrium"))
    half += _answer(("4", "Heart"), ("5", "Lung"), ("6", "Liver"))
    assert chance_accuracy(half, KEY, lexicon) == pytest.approx(3 / 36)
    assert chance_accuracy([], KEY, lexicon) == 0.0


def test_marker_accuracy_is_the_same_computation_with_letters(lexicon):
    markers = {"A": "Nucleus", "B": "Mitochondrion", "C": "Golgi apparatus"}
    labels = [("A: nucleus", None), ("mitochondria", "at B"), ("C. lysosome", "")]
    marked = marker_accuracy(labels, markers, lexicon)
    slots = slot_accuracy([(n, h or "", "") for n, h in labels], markers, lexicon)
    assert marked.accuracy == slots.accuracy == pytest.approx(2 / 3)
    assert marked.correct == slots.correct == ["A", "B"]
    assert marked.wrong == slots.wrong == {"C": "lysosome"}
