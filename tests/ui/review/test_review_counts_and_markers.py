"""Review shows marker accuracy per cell, each name's location hint, and what does not count."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from labeler.status import ResponseStatus
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from tests.ui.gui_helpers import open_review
from ui.review.answers import summary_status
from ui.review.cells import Column
from ui.review.view import ReviewView


@pytest.fixture
def view(tmp_path, qtbot, session):
    folder = tmp_path / "p"
    with Project.create(folder) as project:
        key = [KeyEntry("aorta", marker="A"), KeyEntry("left atrium", marker="B")]
        project.items.add(NewItem(item_id="heart", subject="heart", key=key))
        labels = [
            {"name": "aorta", "location_hint": "at A, top centre"},
            {"name": "right atrium", "location_hint": "at B"},
        ]
        record = project.responses.record
        record(
            NewResponse(
                "heart", "m/a", "blind", "h0", ResponseStatus.OK, labels=labels, parse_ok=True
            )
        )
        record(
            NewResponse(
                "heart", "m/a", "told", "h1", ResponseStatus.OK, labels=labels, parse_ok=True
            )
        )
        record(NewResponse("heart", "m/b", "told", "h2", ResponseStatus.API_ERROR, error="503"))
        project.items.update("heart", subject="the heart")  # every answer so far is stale
        record(
            NewResponse(
                "heart", "m/a", "told", "h3", ResponseStatus.OK, labels=labels, parse_ok=True
            )
        )
    return open_review(qtbot, session, folder)


def summary(view: ReviewView, column: Column):
    answers = view.answers_model
    return answers.entry(0, answers.columns.index(column))


def test_cells_show_marker_accuracy_hints_and_whether_they_count(view):
    told, blind, failed = Column("m/a", "told"), Column("m/a", "blind"), Column("m/b", "told")
    current = summary(view, told)
    assert current.markers is not None and current.markers.accuracy == 0.5
    assert current.counts and summary_status(current) == "ok"
    answers = view.answers_model
    tip = answers.data(answers.index(0, answers.columns.index(told)), Qt.ItemDataRole.ToolTipRole)
    assert "marker accuracy: 1 of 2 letters right · wrong: B = right atrium" in tip
    assert "not counted" not in tip
    stale_tip = answers.data(
        answers.index(0, answers.columns.index(blind)), Qt.ItemDataRole.ToolTipRole
    )
    assert "stale: answered for an older subject or image, not counted" in stale_tip

    stale = summary(view, blind)
    assert not stale.counts and summary_status(stale) == "ok · not counted"
    error = summary(view, failed)
    assert not error.counts and summary_status(error) == "api_error · not counted"

    column = answers.columns.index(told)
    names = [answers.entry(r, column) for r in range(1, answers.rowCount())]
    hints = {e.text: e.hint for e in names if e is not None and e.kind != "missed"}
    assert hints == {"aorta": "at A, top centre", "right atrium": "at B"}
    row = next(r for r, e in enumerate(names, start=1) if e and e.text == "aorta")
    tip = answers.data(answers.index(row, column), Qt.ItemDataRole.ToolTipRole)
    assert "location hint: at A, top centre" in tip

    matrix = view.matrix_model
    cell = matrix.index(0, matrix.columns.index(told))
    assert "marker accuracy: 1 of 2" in matrix.data(cell, Qt.ItemDataRole.ToolTipRole)
    assert not view.grab().isNull()  # every delegate paints these cells
