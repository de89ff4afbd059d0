"""The prompts are byte-identical to the dataset card's code blocks."""

import re

import pytest

from labeler.prompts import CONDITIONS, build_prompt, needs_image
from tests.paths import REFERENCE

CARD = REFERENCE / "blindspot-dataset-card.md"


def card_prompts() -> dict[str, str]:
    """The four code blocks of "Prompts — verbatim, as sent", keyed by their condition."""
    text = CARD.read_text(encoding="utf-8")
    section = text.split("### Prompts — verbatim, as sent")[1].split("### Decode settings")[0]
    found = re.findall(r"\*\*`([a-z-]+)`\*\*.*?```\n(.*?)\n```", section, re.S)
    return dict(found)


def test_card_has_the_four_prompts():
    assert list(card_prompts()) == list(CONDITIONS)


@pytest.mark.parametrize("condition", CONDITIONS)
def test_prompt_is_byte_identical_to_card(condition):
    subject = "the human heart (frontal section)"
    expected = card_prompts()[condition].replace("{subject}", subject)
    assert build_prompt(condition, subject).encode("utf-8") == expected.encode("utf-8")


def test_no_image_is_told_and_blind_ignores_subject():
    assert build_prompt("no-image", "x") == build_prompt("told", "x")
    assert build_prompt("blind", "kidney") == build_prompt("blind", "heart")
    assert "kidney" in build_prompt("desc", "kidney")


def test_subject_with_braces_is_inserted_verbatim():
    assert "a {weird} subject" in build_prompt("told", "a {weird} subject")


def test_needs_image_and_unknown_condition():
    assert [needs_image(c) for c in CONDITIONS] == [True, True, True, False]
    with pytest.raises(ValueError, match="unknown condition"):
        build_prompt("told-more", "x")
    with pytest.raises(ValueError, match="unknown condition"):
        needs_image("image")
