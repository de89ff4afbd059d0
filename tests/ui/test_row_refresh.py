"""New rows for the same table repaint only what changed, on the real views' models.

The end of a run re-reads every view's rows; when the same rows come back the view
must keep its selection and scroll and announce only the rows whose cells differ
(:mod:`ui.row_refresh`), and a different set of rows must still reset the view.
"""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QSignalSpy
from PySide6.QtWidgets import QTableView

from tests.ui.factory import answer, heart_project
from tests.ui.gui_helpers import open_review
from ui.curate.items_panel import ItemsModel
from ui.leaderboard.compute import ItemFlag
from ui.leaderboard.flags import FlagsModel
from ui.review.cells import Column
from ui.review.matrix import SummaryRole
from ui.row_refresh import runs, same


def test_nan_equals_nan_through_containers_and_dataclasses():
    nan = float("nan")
    assert same(math.nan, nan)
    assert same({"told": [1.0, nan]}, {"told": [1.0, float("nan")]})
    assert not same({"told": [1.0, nan]}, {"told": [1.0, 2.0]})
    assert not same({"told": 1.0}, {"blind": 1.0})
    a = ItemFlag("i", "I-1", "heart", False, True, 0.5, nan)
    assert same(a, ItemFlag("i", "I-1", "heart", False, True, 0.5, float("nan")))
    assert not same(a, ItemFlag("i", "I-1", "heart", True, True, 0.5, nan))
    assert not same(1.0, "1.0")


def test_rows_group_into_runs_of_consecutive_rows():
    assert runs([5, 1, 2, 3, 9, 8]) == [(1, 3), (5, 5), (8, 9)]
    assert runs([]) == []


def flags(best: dict[str, float]) -> list[ItemFlag]:
    return [ItemFlag(i, i, "s", False, f < 1, f, math.nan) for i, f in best.items()]


def test_the_same_rows_again_announce_only_the_changed_row_and_keep_the_selection(qtbot):
    model, view = FlagsModel(), QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    model.show(flags({"a": 0.2, "b": 0.5, "c": 0.9}), "all")
    view.setCurrentIndex(model.index(2, 1))
    resets, changes = QSignalSpy(model.modelReset), QSignalSpy(model.dataChanged)

    model.show(flags({"a": 0.2, "b": 0.5, "c": 0.9}), "all")  # nothing moved, NaN included
    assert (resets.count(), changes.count()) == (0, 0)

    model.show(flags({"a": 0.2, "b": 0.7, "c": 0.9}), "all")  # one item's best F1
    assert resets.count() == 0 and changes.count() == 1
    top_left, bottom_right = changes.at(0)[0], changes.at(0)[1]
    assert (top_left.row(), bottom_right.row()) == (1, 1)
    assert (top_left.column(), bottom_right.column()) == (0, model.columnCount() - 1)
    assert model.text(1, 2) == "70"
    assert (view.currentIndex().row(), view.currentIndex().column()) == (2, 1)

    model.show(flags({"a": 0.2, "c": 0.9}), "all")  # a different set of rows resets
    assert resets.count() == 1 and model.rowCount() == 2


def test_the_items_list_updates_a_rescored_item_in_place(tmp_path, qtbot):
    project = heart_project(tmp_path / "p")
    items = project.items.list()
    model = ItemsModel()
    model.load(items, {"heart": 3, "cell": 2}, {"heart": 0.5, "cell": 0.25})
    resets, changes = QSignalSpy(model.modelReset), QSignalSpy(model.dataChanged)
    model.load(items, {"heart": 3, "cell": 2}, {"heart": 0.5, "cell": 0.75})
    row = model.row_of("cell")
    assert resets.count() == 0 and changes.count() == 1
    assert changes.at(0)[0].row() == changes.at(0)[1].row() == row
    assert model.data(model.index(row, 3)) == "0.75"
    renamed = project.items.update("heart", subject="the human heart")
    model.load([renamed if i.id == "heart" else i for i in items], model.counts, model.scores)
    assert changes.count() == 2 and changes.at(1)[0].row() == model.row_of("heart")
    project.close()


@pytest.fixture
def review(tmp_path, qtbot, session):
    heart_project(tmp_path / "p").close()
    return open_review(qtbot, session, tmp_path / "p")


def test_a_run_answering_one_item_repaints_its_row_and_keeps_the_open_cell(review, qtbot):
    matrix = review.matrix_model
    cell = matrix.index(matrix.item_ids.index("cell"), matrix.columns.index(Column("m/a", "told")))
    review.matrix.setCurrentIndex(cell)
    qtbot.waitUntil(lambda: not review.loading, timeout=10_000)
    assert review.current_item_id() == "cell"
    resets, changes = QSignalSpy(matrix.modelReset), QSignalSpy(matrix.dataChanged)
    answers_reset = QSignalSpy(review.answers_model.modelReset)

    review.session.responses_changed.emit()  # a run ended that changed nothing
    qtbot.waitUntil(lambda: not review.loading, timeout=10_000)
    assert (resets.count(), changes.count(), answers_reset.count()) == (0, 0, 0)

    project = review.session.project
    project.responses.record(answer("heart", "m/b", "told", ["aorta", "mitral valve"]))
    review.session.responses_changed.emit()
    qtbot.waitUntil(lambda: not review.loading, timeout=10_000)
    heart = matrix.item_ids.index("heart")
    assert resets.count() == 0 and changes.count() == 1
    assert changes.at(0)[0].row() == changes.at(0)[1].row() == heart
    told_b = matrix.index(heart, matrix.columns.index(Column("m/b", "told")))
    assert told_b.data(SummaryRole).f1 == pytest.approx(0.8)  # 2 of 3 key names, no extras
    assert review.matrix.currentIndex() == cell, "the curator's cell stays selected"
    assert answers_reset.count() == 0, "the open item did not change: its answers stand"


def test_a_renamed_item_announces_its_own_row_header_and_nothing_else(review, qtbot):
    matrix = review.matrix_model
    headers = QSignalSpy(matrix.headerDataChanged)
    review.session.responses_changed.emit()  # nothing changed: no header to announce
    qtbot.waitUntil(lambda: not review.loading, timeout=10_000)
    assert headers.count() == 0

    review.session.project.items.update("heart", subject="the human heart")
    review.session.item_changed.emit("heart")
    qtbot.waitUntil(lambda: not review.loading, timeout=10_000)
    heart = matrix.item_ids.index("heart")
    assert headers.count() == 1 and tuple(headers.at(0)[1:]) == (heart, heart)
    assert matrix.headerData(heart, Qt.Orientation.Vertical).endswith("the human heart")
