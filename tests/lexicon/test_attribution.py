"""The attribution the ontology licences ask for is in the README and in every dataset card."""

from __future__ import annotations

from pathlib import Path

from labeler.export.card import CardInfo, render_card
from labeler.lexicon_sources import ONTOLOGY_CREDITS

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_credits_every_ontology():
    text = README.read_text(encoding="utf-8")
    assert all(line in text for line in ONTOLOGY_CREDITS)


def test_every_dataset_card_ends_with_the_attribution():
    card = render_card(CardInfo("Demo", "DEMO"), [], [], 0)
    section = card[card.index("## Attribution") :]
    assert all(line in section for line in ONTOLOGY_CREDITS)
    assert "CC BY 3.0" in section and "CC BY 4.0" in section
