"""The card's review counts, caveats, citation and prompts, and the private audit trail."""

from __future__ import annotations

import json

import pytest

from labeler import review
from labeler.agreement import add_curator_key
from labeler.cli import main
from labeler.export.exporter import export_project
from labeler.prompts import build_prompt
from labeler.store import KeyEntry, NewItem, Project
from tests.export.export_fixtures import MODELS, answer

HEART = "campbell-p137-fig42-3"


def _section(card: str, heading: str) -> str:
    return card.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _card(folder) -> str:
    return (folder / "README.md").read_text(encoding="utf-8")


def test_public_card_counts_review_and_only_the_private_export_says_who(project, tmp_path):
    review.override(project, HEART, MODELS[0], "told", "correct", "the valve is cut off", "Ada")
    review.approve(project, HEART, "Ada")
    review.comment(project, HEART, "Secret remark about the plate", "Grace")
    add_curator_key(
        project, HEART, "Linus", ["left atrium", "bicuspid valve", "aorta", "pulmonary artery"]
    )
    export_project(project, tmp_path / "public")
    card = _card(tmp_path / "public")
    section = _section(card, "Review")
    assert "- 1 item reviewed (approved, or key confirmed as published) by 2 reviewers." in section
    assert "- 1 answer scored by a reviewer instead of the scorer" in section
    # three of four names shared, "bicuspid valve" being the mitral valve: F1 0.75
    assert "**Key agreement: 0.750** mean name-set F1" in section
    assert "of 1 item (0 identical; 1 second curator)" in section
    published = "".join(p.read_text() for p in (tmp_path / "public").rglob("*") if p.is_file())
    for private in ("Ada", "Grace", "Linus", "the valve is cut off", "Secret remark"):
        assert private not in published
    assert not (tmp_path / "public" / "audit.jsonl").exists()
    rows = [json.loads(x) for x in (tmp_path / "public" / "results.jsonl").read_text().splitlines()]
    overridden = [r for r in rows if r["model"] == MODELS[0] and r["condition"] == "told"]
    heart_told = [r for r in overridden if r["key_names"][0] == "Left atrium"]
    assert heart_told[0]["f1"] == 1.0 and heart_told[0]["recall"] == 0.75

    export_project(project, tmp_path / "private", private=True)
    audit = [json.loads(x) for x in (tmp_path / "private" / "audit.jsonl").read_text().splitlines()]
    assert [(r["kind"], r["reviewer"]) for r in audit] == [
        ("override", "Ada"),
        ("approve", "Ada"),
        ("comment", "Grace"),
    ]
    assert audit[0]["text"] == "the valve is cut off" and audit[0]["value"] == 1.0
    assert all(r["item_id"].startswith("NALANDA-") and r["in_force"] for r in audit)
    # re-exported publicly into the same folder, the trail goes with the provenance
    export_project(project, tmp_path / "private")
    assert not (tmp_path / "private" / "audit.jsonl").exists()


def test_caveats_are_computed_from_the_data(project, tmp_path):
    export_project(project, tmp_path / "out")
    caveats = _section(_card(tmp_path / "out"), "Caveats")
    # the fixture: a draft item is exported, and its last gemini no-image call failed
    assert "**Unreviewed items** — 1 item not marked ready" in caveats
    assert "not published: 1 cell whose latest call returned no answer (API error)" in caveats
    for absent in ("Failure-only", "Mixed routes", "Stale answers", "Incomplete model"):
        assert absent not in caveats

    project.items.update(HEART, subject="human heart, posterior view")  # its answers go stale
    route = {"provider": "openrouter", "temperature": 0}
    answer(project, "campbell-p140-fig6-8", MODELS[1], "told", ["nucleus"], settings=route)
    export_project(project, tmp_path / "again")
    caveats = _section(_card(tmp_path / "again"), "Caveats")
    # the heart's 8 cells (2 models x 4 conditions, all answered) were asked the old subject
    assert "not published: 8 answers given for an older subject or question image" in caveats
    assert f"**Mixed routes** — `{MODELS[1]}` answered with more than one set" in caveats


def test_a_set_no_model_solved_is_called_failure_only_and_a_clean_one_has_no_caveats(tmp_path):
    with Project.create(tmp_path / "p", name="Plants", id_prefix="PLANT") as p:
        leaf = p.items.add(
            NewItem(
                subject="leaf cross-section",
                status="ready",
                key=[KeyEntry("Xylem"), KeyEntry("Phloem"), KeyEntry("Stoma")],
            )
        )
        answer(p, leaf.id, "m/one", "told", ["xylem", "phloem"])
        answer(p, leaf.id, "m/one", "no-image", ["xylem"])
        export_project(p, tmp_path / "failing")
        card = _card(tmp_path / "failing")
        assert "**Failure-only set** — no model solved any of the 1 item" in card
        # one model, two conditions: the counts read in the singular where they are one
        assert "**2 scored responses** across 1 model,\n2 conditions, and 1 benchmark item" in card
        # only the prompts of the conditions used, verbatim
        prompts = card.split("### Prompts — verbatim, as sent")[1].split("### Decode")[0]
        assert "```\n" + build_prompt("told", "{subject}") + "\n```" in prompts
        assert "**`no-image`**" in prompts
        assert "**`blind`**" not in prompts and "**`desc`**" not in prompts

        answer(p, leaf.id, "m/one", "told", ["xylem", "phloem", "stomata"])
        export_project(p, tmp_path / "solved")
        assert _section(_card(tmp_path / "solved"), "Caveats").strip() == (
            "Computed from the exported data.\n\nNo caveats were found in the data."
        )


def test_citation_from_the_export_flags_is_remembered(project, tmp_path, capsys):
    project.close()
    folder = tmp_path / "proj"
    args = ["export", str(folder), "--out", str(tmp_path / "out"), "--pretty-name", "HEARTSPOT"]
    args += ["--cite-author", "Ada Lovelace", "--cite-author", "Grace Hopper"]
    assert main([*args, "--cite-url", "https://example.org/heartspot"]) == 0
    citation = _section(_card(tmp_path / "out"), "Citation").strip()
    assert citation.startswith("```bibtex\n@dataset{lovelace")
    assert "  title  = {{HEARTSPOT}},\n" in citation
    assert "  author = {Ada Lovelace and Grace Hopper},\n" in citation
    assert "  url    = {https://example.org/heartspot}\n}" in citation
    with Project.open(folder) as p:
        year = max(i.updated_at for i in p.items.list() if i.status != "excluded")[:4]
    assert f"  year   = {{{year}}},\n" in citation and f"lovelace{year}heartspot," in citation
    # remembered: a plain export cites the same, and --cite-year sets the year
    assert main(["export", str(folder), "--out", str(tmp_path / "b"), "--cite-year", "2031"]) == 0
    again = _section(_card(tmp_path / "b"), "Citation")
    assert "year   = {2031}" in again and "Grace Hopper" in again
    with pytest.raises(SystemExit):
        main(["export", str(folder), "--cite-author"])
