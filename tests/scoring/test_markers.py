"""Marker accuracy: the letter is read from the name or the location hint."""

import pytest

from labeler.lexicon import Lexicon
from labeler.scoring.markers import marker_accuracy, read_letter


@pytest.mark.parametrize(
    ("name", "hint", "letter", "clean"),
    [
        ("B: aorta", None, "B", "aorta"),
        ("B. aorta", "", "B", "aorta"),
        ("B - aorta", "", "B", "aorta"),
        ("(B) aorta", "", "B", "aorta"),
        ("B) aorta", "", "B", "aorta"),
        ("aorta (B)", "", "B", "aorta"),
        ("aorta [b]", "", "B", "aorta"),
        ("aorta", "at B", "B", "aorta"),
        ("aorta", "label B", "B", "aorta"),
        ("aorta", "marker c", "C", "aorta"),
        ("aorta", "the structure at D, top left", "D", "aorta"),
        ("aorta", "B", "B", "aorta"),
        ("3: aorta", "", "3", "aorta"),
        ("aorta", "top left of the heart", None, "aorta"),
        ("A band", None, None, "A band"),
    ],
)
def test_read_letter(name, hint, letter, clean):
    assert read_letter(name, hint) == (letter, clean)


def test_accuracy_counts_right_name_at_right_letter():
    lexicon = Lexicon.from_rows([("pulmonary trunk", "pulmonary artery trunk", "same")])
    labels = [
        ("A: aortae", None),  # wrong surface form, right part: counts (plural)
        ("pulmonary artery trunk", "at B"),  # synonym: counts
        ("vena cava", "marker C"),  # wrong name for C
        ("(D) left atrium", None),
        ("D: right atrium", None),  # a second name for D does not get a second chance
    ]
    markers = {
        "A": "aorta",
        "B": "pulmonary trunk",
        "C": "left ventricle",
        "D": "right atrium",
        "E": "septum",
    }
    score = marker_accuracy(labels, markers, lexicon)
    assert score.correct == ["A", "B"]
    assert score.wrong == {"C": "vena cava", "D": "left atrium"}
    assert score.unanswered == ["E"]
    assert score.n_markers == 5 and score.accuracy == pytest.approx(0.4)


def test_names_without_letters_score_nothing():
    score = marker_accuracy([("aorta", None), ("heart", "middle")], {"A": "aorta"})
    assert score.accuracy == 0.0 and score.unanswered == ["A"]


def test_no_markers_is_zero_not_an_error():
    assert marker_accuracy([("A: aorta", None)], {}).accuracy == 0.0
