"""Normalisation and plural rules: each surface rule of the card, one by one."""

import pytest

from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Left Atrium", "left atrium"),  # case
        ("  left \t atrium ", "left atrium"),  # whitespace
        ("left atrium.", "left atrium"),  # punctuation
        ("semi-lunar valve", "semi lunar valve"),  # hyphen vs space
        ("semi–lunar valve", "semi lunar valve"),  # en dash
        ("the aorta", "aorta"),  # leading article
        ("An ovary", "ovary"),
        ("loop of Henle", "Henle's loop"),  # possessive word order
        ("loop of Henle", "Henle loop"),
        ("Henle’s loop", "Henle loop"),  # typographic apostrophe
        ("node of Ranvier", "Ranvier node"),
        ("head of the femur", "femur head"),
    ],
)
def test_equal_after_normalisation(a, b):
    assert normalize(a) == normalize(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("aorta", "the aortic arch"),
        ("A band", "band"),
        ("A-site", "site"),
        ("atrium", "left atrium"),
    ],
)
def test_different_names_stay_different(a, b):
    assert normalize(a) != normalize(b)


def test_article_alone_is_kept_and_blank_is_empty():
    assert normalize("The") == "the"
    assert normalize("  ...  ") == ""


@pytest.mark.parametrize(
    ("singular", "plural"),
    [
        ("alveolus", "alveoli"),
        ("atrium", "atria"),
        ("vertebra", "vertebrae"),
        ("ganglion", "ganglia"),
        ("cortex", "cortices"),
        ("foramen", "foramina"),
        ("phalanx", "phalanges"),
        ("testis", "testes"),
        ("appendix", "appendices"),
        ("stoma", "stomata"),
        ("ovum", "ova"),
        ("vein", "veins"),
        ("artery", "arteries"),
        ("branch", "branches"),
        ("sinus", "sinuses"),
        ("tooth", "teeth"),
        ("left atrium", "left atria"),
        ("islet of Langerhans", "islets of Langerhans"),
    ],
)
def test_singular_meets_plural(singular, plural):
    assert name_forms(normalize(singular)) & name_forms(normalize(plural))


@pytest.mark.parametrize(
    ("a", "b"),
    [("atrium", "aorta"), ("sinus", "sinu"), ("process", "proces"), ("atria wall", "atrium wall")],
)
def test_no_false_plural(a, b):
    assert not name_forms(normalize(a)) & name_forms(normalize(b))
