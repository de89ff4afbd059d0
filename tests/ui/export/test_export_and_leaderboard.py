"""The Export dialog writes real files; the Leaderboard shows the card's numbers."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from tests.ui.factory import answer, heart_project
from tests.ui.gui_helpers import show_loaded
from ui.export.dialog import ExportDialog
from ui.leaderboard.compute import METRICS, compute
from ui.leaderboard.view import LeaderboardView


def lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture
def dialog(tmp_path, qtbot, session):
    heart_project(tmp_path / "p").close()
    session.open(tmp_path / "p")
    widget = ExportDialog(session)
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    widget.close()


def export(dialog, qtbot, folder) -> None:
    dialog.folder.setText(str(folder))
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=20_000)


def test_export_writes_the_public_files_and_says_what_it_wrote(dialog, qtbot, tmp_path):
    changed = []
    dialog.session.items_changed.connect(lambda: changed.append(True))
    out = tmp_path / "out"
    assert dialog.scope.text().startswith("2 item(s) will be exported")
    export(dialog, qtbot, out)

    results, items = lines(out / "results.jsonl"), lines(out / "items.jsonl")
    assert len(items) == 2
    assert len(results) == 6  # 7 cells, one of them an API error with no answer
    assert {r["item_id"] for r in results} == {i["item_id"] for i in items}
    assert (out / "README.md").is_file() and not (out / "provenance.jsonl").exists()
    text = dialog.result.toPlainText()
    assert "Validation passed" in text and str(out / "results.jsonl") in text
    assert dialog.report is not None and dialog.report.files["results.jsonl"] == 6
    assert "1 cell(s) left out" in text
    assert changed, "public IDs were assigned: views are told"


def test_private_export_of_ready_items_only(dialog, qtbot, tmp_path):
    dialog.private.setChecked(True)
    dialog.only_ready.setChecked(True)
    assert dialog.scope.text().startswith("1 item(s) will be exported")
    out = tmp_path / "private"
    export(dialog, qtbot, out)
    assert len(lines(out / "items.jsonl")) == 1
    provenance = lines(out / "provenance.jsonl")
    assert [p["internal_id"] for p in provenance] == ["heart"]


def test_a_refused_export_writes_nothing_and_says_why(dialog, qtbot, tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "thesis.docx").write_bytes(b"precious")
    export(dialog, qtbot, out)
    assert "Export failed" in dialog.result.toPlainText()
    assert "not an earlier export" in dialog.result.toPlainText()
    assert sorted(p.name for p in out.iterdir()) == ["thesis.docx"]
    assert dialog.export_button.isEnabled()


def test_validation_is_shown_before_exporting_and_writes_nothing(dialog, qtbot, tmp_path):
    qtbot.waitUntil(lambda: dialog.check_worker is None, timeout=20_000)
    assert dialog.validation.text().count("Valid: 2 items, 6 rows, ") == 1
    assert "2 item(s) will get new public IDs" in dialog.validation.text()
    assert dialog.check is not None and dialog.check.folder is None
    project = dialog.session.require_project()
    assert project.db.execute("SELECT COUNT(*) FROM public_ids").fetchone()[0] == 0
    dialog.only_ready.setChecked(True)
    qtbot.waitUntil(lambda: "Valid: 1 item," in dialog.validation.text(), timeout=20_000)
    # a problem is shown before any attempt, with the reason
    project.items.add(NewItem(subject="forgot the key", status="ready"))
    dialog.private.setChecked(True)
    qtbot.waitUntil(lambda: dialog.check_worker is None, timeout=20_000)
    assert "no answer key" in dialog.validation.text() and dialog.check is None
    assert dialog.result.toPlainText() == ""  # nothing was attempted


def known_project(folder) -> Project:
    """Means anyone can check: m/a told 1.0, no-image 2/3, blind 0; m/b told 2/3."""
    project = Project.create(folder, name="known")
    for item_id in ("i1", "i2"):
        project.items.add(
            NewItem(item_id=item_id, subject="x", key=[KeyEntry("aorta"), KeyEntry("vein")])
        )
        record = project.responses.record
        record(answer(item_id, "m/a", "told", ["aorta", "vein"]))
        record(answer(item_id, "m/a", "no-image", ["aorta"]))
        record(answer(item_id, "m/a", "blind", ["tooth"]))
        record(answer(item_id, "m/b", "told", ["aorta"]))
        record(NewResponse(item_id, "m/b", "no-image", "e", "api_error", error="HTTP 503"))
    return project


def test_leaderboard_shows_the_cards_table_chart_and_flags(tmp_path, qtbot, session):
    known_project(tmp_path / "p").close()
    session.open(tmp_path / "p")
    view = LeaderboardView(session)
    show_loaded(qtbot, view, lambda: view.board is not None and not view.computing)

    table = view.table
    rows = {
        table.item(r, 0).text(): [table.item(r, c).text() for c in range(1, 7)]
        for r in range(table.rowCount())
    }
    assert table.item(0, 0).text() == "m/a", "sorted by told"
    assert rows["m/a"] == ["0.0%", "100.0%", "—", "66.7%", "+33.3", "67%"]
    assert rows["m/b"] == ["—", "66.7%", "—", "—", "—", "—"]
    assert table.item(0, 2).data(Qt.ItemDataRole.UserRole + 30) == "100.0 – 100.0"
    assert "2 API errors left out" in view.summary.text()
    assert [r.model for r in view.chart.rows] == ["m/a", "m/b"]

    model = view.flags_model
    flags = {model.text(r, 0): model.text(r, 4) for r in range(model.rowCount())}
    assert flags == {"i1": "recitable", "i2": "recitable"}
    view.close()


def test_leaderboard_flags_and_their_best_scores_count_current_answers_only(tmp_path):
    with Project.create(tmp_path / "p", name="Flags", id_prefix="fl") as project:
        item = project.items.add(
            NewItem(subject="heart", key=[KeyEntry("aorta"), KeyEntry("atrium")])
        ).id
        project.responses.record(answer(item, "m/a", "told", ["aorta", "atrium"]))
        project.items.update(item, subject="the heart")  # that perfect answer is now stale
        project.responses.record(answer(item, "m/a", "no-image", ["aorta"]))
    board = compute(tmp_path / "p", n_boot=50)
    assert [(f.item_id, f.best_f1, f.best_no_image) for f in board.items] == [
        (item, pytest.approx(2 / 3), pytest.approx(2 / 3))
    ]
    assert (board.items[0].recitable, board.items[0].unsolved_core) == (True, True)
    assert METRICS == ("blind", "told", "desc", "no-image", "grounded", "recited")


def test_cancel_stops_an_export_before_it_writes_and_says_so(dialog, qtbot, tmp_path, monkeypatch):
    import threading

    import labeler.export.exporter as exporter

    scoring, go_on = threading.Event(), threading.Event()
    real = exporter.cell_columns

    def slow_scoring(*args, **kwargs):  # holds the export at its scoring step
        scoring.set()
        go_on.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(exporter, "cell_columns", slow_scoring)
    out = tmp_path / "out"
    dialog.folder.setText(str(out))
    qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    try:
        qtbot.waitUntil(scoring.is_set, timeout=20_000)
        # the step's progress reaches the GUI thread as a queued signal
        qtbot.waitUntil(lambda: "Scoring" in dialog.progress.message.text(), timeout=20_000)
        assert dialog.progress.isVisible()
        dialog.progress.cancel_button.click()
    finally:
        go_on.set()  # never leave the worker waiting, whatever failed
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=20_000)
    assert "Export cancelled. Nothing was written." in dialog.result.toPlainText()
    assert not out.exists()
    assert not dialog.progress.isVisible()
