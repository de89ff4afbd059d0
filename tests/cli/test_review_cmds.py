"""``labeler review …``, ``labeler agreement`` and ``labeler items add-key`` on a real project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.cli import main
from tests.export.export_fixtures import MODELS, PAGE, SOURCE_NAME, build_project, make_pdf

HEART = "campbell-p137-fig42-3"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    build_project(tmp_path / "proj", make_pdf(tmp_path / SOURCE_NAME, PAGE + 3)).close()
    return tmp_path / "proj"


def run(*argv) -> int:
    return main([str(a) for a in argv])


def test_a_review_session_from_the_command_line(folder, capsys, monkeypatch):
    monkeypatch.delenv("LABELER_REVIEWER", raising=False)
    assert run("review", "approve", folder, HEART) == 2
    assert "say who is reviewing: --reviewer NAME" in capsys.readouterr().err

    monkeypatch.setenv("LABELER_REVIEWER", "Ada")
    assert run("review", "confirm-key", folder, HEART) == 0
    assert f"#1 {HEART}: key confirmed by Ada" in capsys.readouterr().out
    score = ("review", "override", folder, HEART, MODELS[0], "told", "correct")
    assert run(*score, "--reason", "right ventricle is cut off", "--reviewer", "Grace") == 0
    assert "score 1 by Grace" in capsys.readouterr().out
    assert run("review", "comment", folder, HEART, "hedges", "--model", MODELS[1]) == 2
    assert "both the model and the condition" in capsys.readouterr().err
    assert run("review", "comment", folder, HEART, "check the valve") == 0

    capsys.readouterr()
    assert run("report", folder) == 0
    report = capsys.readouterr().out
    assert "Review: 1 item reviewed, 1 score overridden, 1 comment" in report

    assert run("review", "undo", folder, "--last", HEART, "--reviewer", "Grace") == 0
    assert "undid #2" in capsys.readouterr().out  # Grace's newest decision: her override
    assert run("review", "undo", folder, "2") == 2
    assert "already undone by Grace" in capsys.readouterr().err
    assert run("review", "undo", folder, "99") == 2
    assert "no review decision 99" in capsys.readouterr().err

    assert run("review", "log", folder) == 0
    log = capsys.readouterr().out.splitlines()
    assert log[0].endswith("Ada: confirmed the key")
    assert "overrode openai/gpt-4o · told score → 1: right ventricle is cut off" in log[1]
    assert log[1].endswith("[undone by Grace]")
    assert log[3].endswith("Grace: undid decision 2")
    assert log[-1] == "4 decisions; 1 item reviewed, 0 scores overridden, 1 comment"
    assert run("review", "log", folder, HEART, "--json") == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["kind"] for r in rows] == ["confirm-key", "override", "comment", "undo"]
    assert [r["in_force"] for r in rows] == [True, False, True, True]


def test_approve_refuses_a_bad_value_and_names_the_item(folder, capsys):
    assert run("review", "override", folder, HEART, MODELS[0], "told", "1.5", "--reason", "x",
               "--reviewer", "Ada") == 2  # fmt: skip
    assert "a score is from 0 to 1, not 1.5" in capsys.readouterr().err
    assert run("review", "approve", folder, "nope", "--reviewer", "Ada") == 2
    assert "no item with id 'nope'" in capsys.readouterr().err


def test_agreement_from_a_second_key(folder, capsys):
    assert run("agreement", folder) == 0
    assert "no figure has two keys" in capsys.readouterr().out
    names = ["left atrium", "bicuspid valve", "aorta", "pulmonary artery"]
    assert run("items", "add-key", folder, HEART, *names, "--curator", "Grace") == 0
    assert "key of Grace stored (4 names)" in capsys.readouterr().out
    assert run("agreement", folder) == 0
    out = capsys.readouterr().out
    assert "key agreement: mean name-set F1 0.750 over 1 figure" in out
    assert "1 figure to resolve:" in out
    assert "    only in key: Right ventricle" in out
    assert "    only in Grace: pulmonary artery" in out
    assert run("agreement", folder, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["items"] == 1 and data["comparisons"][0]["only_first"] == ["Right ventricle"]


def test_agreement_between_two_projects(folder, tmp_path, capsys):
    from labeler.store import KeyEntry, NewItem, Project

    with Project.create(tmp_path / "second", name="Second lab") as other:
        source = other.sources.add(tmp_path / SOURCE_NAME, kind="pdf", page_count=PAGE + 3)
        other.items.add(
            NewItem(
                source_id=source.id,
                page=PAGE,
                clip=(72.0, 90.5, 410.0, 500.25),
                key=[KeyEntry(n) for n in ("Left atrium", "Bicuspid valve", "Aorta", "Septum")],
            )
        )
    assert run("agreement", folder, tmp_path / "second") == 0
    out = capsys.readouterr().out
    # bicuspid = mitral (the first project's lexicon); "Septum" and "Right ventricle" differ
    assert "key agreement: mean name-set F1 0.750 over 1 figure" in out
    assert "    only in Heart figures: Right ventricle" in out
    assert "    only in Second lab: Septum" in out
