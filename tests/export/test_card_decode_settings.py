"""The card's "Decode settings per model": read from the stored responses, mixed sets shown."""

from __future__ import annotations

from labeler.export.exporter import export_project
from tests.export.export_fixtures import MODELS, answer

ROUTE = {"provider": "openai", "model": "gpt-4o-2024-08-06", "temperature": 0, "max_tokens": 1024}


def test_settings_per_model_with_mixed_sets_and_no_private_endpoint(project, tmp_path):
    heart = next(i for i in project.items.list() if i.subject.startswith("human heart"))
    # the fixture's answers carry no settings (as imported answers); one re-asked cell does
    answer(
        project,
        heart.id,
        MODELS[0],
        "blind",
        ["left atrium"],
        settings={**ROUTE, "base_url": "http://10.20.30.40:8000/v1"},
    )
    export_project(project, tmp_path / "out")
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    section = card.split("### Decode settings per model")[1].split("## Results")[0]
    assert (
        '| `openai/gpt-4o` | `max_tokens=1024`, `model="gpt-4o-2024-08-06"`, '
        '`provider="openai"`, `temperature=0` | 1 |'
    ) in section
    # 7 counted answers per model in the fixture; one of gpt-4o's was re-asked with settings
    assert "| `openai/gpt-4o` | not recorded (imported) | 6 |" in section
    assert "| `google/gemini-2.5-flash` | not recorded (imported) | 7 |" in section
    assert "**Mixed settings:** `openai/gpt-4o` answered with more than one" in section
    assert "10.20.30.40" not in card and "base_url" not in card


def test_a_card_without_answers_says_so():
    from labeler.export.card import CardInfo, render_card

    card = render_card(CardInfo("Empty", "x"), [], [], 0)
    section = card.split("### Decode settings per model")[1].split("## Results")[0]
    assert "No scored responses yet." in section
