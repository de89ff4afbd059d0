"""After a subject edit, every view shows the number the export publishes.

The bug this pins: the Leaderboard and the Curate list counted every answered
cell while the export counted only current ones, so after a subject edit the
Leaderboard said 83.3 % where the exported card said 66.7 %. Here a real project
gets that edit, and the Leaderboard (model and widget), the Curate items list,
``labeler report`` (on the project and on the export) and the exported card
must all say 66.7 %.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.export.exporter import export_project
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from ui.curate.items_panel import ItemsPanel
from ui.leaderboard.compute import compute
from ui.leaderboard.view import LeaderboardView

ROOT = Path(__file__).resolve().parents[3]
MODEL = "lab/vision"


def told(item_id: str, names: list[str], status: str = "ok") -> NewResponse:
    return NewResponse(
        item_id,
        MODEL,
        "told",
        f"{item_id}-told",
        status,
        raw_text=json.dumps({"labels": [{"name": n} for n in names]}),
        labels=[{"name": n, "location_hint": "upper left"} for n in names],
        parse_ok=status == "ok",
        error="HTTP 503" if status == "api_error" else None,
    )


def edited_project(folder: Path) -> None:
    """Two heart items answered under told: 1.0 and 2/3 (83.3 %); then item A's subject is
    corrected, so its perfect answer is stale and only B's 2/3 counts (66.7 %). An API error
    under no-image must not count either."""
    with Project.create(folder, name="hearts", id_prefix="HRT") as project:
        key = [KeyEntry("aorta"), KeyEntry("pulmonary vein")]
        project.items.add(NewItem(item_id="heart-a", subject="the heart", key=key))
        project.items.add(NewItem(item_id="heart-b", subject="heart valves", key=key))
        project.responses.record(told("heart-a", ["aorta", "pulmonary vein"]))
        project.responses.record(told("heart-b", ["aorta"]))
        failed = told("heart-b", [], status="api_error")
        project.responses.record(
            NewResponse(**{**failed.__dict__, "condition": "no-image", "request_hash": "b-ni"})
        )
        before = compute(folder, n_boot=20).rows[0].values["told"]
        assert before == pytest.approx(250 / 3), "both answers count before the edit"
        project.items.update("heart-a", subject="the human heart, anterior view")


def report(target: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "labeler", "report", str(target)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_leaderboard_curate_report_and_card_agree_after_a_subject_edit(tmp_path, qtbot, session):
    folder = tmp_path / "p"
    edited_project(folder)
    want_row = f"| {MODEL} | — | 66.7% | — | — | — | — |"

    board = compute(folder, n_boot=20)
    assert board.rows[0].values["told"] == pytest.approx(200 / 3)
    assert (board.n_answers, board.n_stale, board.n_unanswered) == (1, 1, 1)

    with Project.open(folder) as project:
        out = tmp_path / "export"
        exported = export_project(project, out)
    assert (exported.n_rows, exported.skipped_stale, exported.skipped_unanswered) == (1, 1, 1)
    card = (out / "README.md").read_text(encoding="utf-8")
    assert want_row in card.splitlines()
    assert want_row in report(out / "results.jsonl")
    assert want_row in report(folder)

    session.open(folder)
    view = LeaderboardView(session)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.board is not None and not view.computing, timeout=20_000)
    assert view.table.item(0, 0).text() == MODEL
    assert view.table.item(0, 2).text() == "66.7%"
    assert "1 stale answers left out" in view.summary.text()

    panel = ItemsPanel(session)
    qtbot.addWidget(panel)
    panel.reload()
    qtbot.waitUntil(lambda: not panel.loading)  # the rows are scored on a worker
    scores = {
        item.id: panel.model.data(panel.model.index(row, 3))
        for row, item in enumerate(panel.model.items)
    }
    assert scores == {"heart-a": "—", "heart-b": "0.67"}
    view.close()
