"""The Review view driven like a user: read scores, promote a name, filter, navigate."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.ui.factory import answer, heart_project
from tests.ui.gui_helpers import open_review
from ui.review.cells import Column
from ui.review.matrix import SummaryRole
from ui.review.view import ReviewView
from ui.shortcuts import ShortcutRegistry


@pytest.fixture
def view(tmp_path, qtbot, session):
    heart_project(tmp_path / "p").close()
    return open_review(qtbot, session, tmp_path / "p")


def settle(view: ReviewView, qtbot) -> None:
    """Wait until the view has read and scored the project (on a worker)."""
    qtbot.waitUntil(lambda: not view.loading, timeout=10_000)


def matrix_cell(view: ReviewView, item_id: str, model: str, condition: str):
    matrix = view.matrix_model
    row = matrix.item_ids.index(item_id)
    return matrix.index(row, matrix.columns.index(Column(model, condition)))


def show(view: ReviewView, item_id: str, qtbot) -> None:
    """Open ``item_id`` and wait for its answers (read and scored on a worker)."""
    view.select_row(view.matrix_model.item_ids.index(item_id))
    settle(view, qtbot)


def click_answer(view: ReviewView, qtbot, column: Column, kind: str, text: str) -> None:
    answers = view.answers_model
    c = answers.columns.index(column)
    row = next(
        r
        for r in range(answers.rowCount())
        if (e := answers.entry(r, c)) is not None and e.kind == kind and e.text == text
    )
    index = answers.index(row, c)
    view.answers.scrollTo(index)
    rect = view.answers.visualRect(index)
    qtbot.mouseClick(view.answers.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def menu_action(menu, data):
    for action in menu.actions():
        if action.data() == data:
            return action
        if action.menu() is not None and (found := menu_action(action.menu(), data)) is not None:
            return found
    return None


def test_promoting_a_predicted_name_rescores_the_cell_live_and_undo_restores_it(view, qtbot):
    show(view, "heart", qtbot)
    cell = matrix_cell(view, "heart", "m/a", "told")
    assert cell.data(SummaryRole).f1 == pytest.approx(2 / 3)
    told = Column("m/a", "told")

    click_answer(view, qtbot, told, "extra", "bicuspid valve")
    action = menu_action(view.active_menu, ("bicuspid valve", "mitral valve", "same"))
    assert action is not None, "the menu offers the missed key name"
    action.trigger()
    settle(view, qtbot)

    assert cell.data(SummaryRole).f1 == pytest.approx(1.0)
    matched = [m for m in view.data.score("heart", told).matches if m.pred == "bicuspid valve"]
    assert [(m.key, m.how) for m in matched] == [("mitral valve", "synonym")]
    assert view.session.project.lexicon.rows() == [("mitral valve", "bicuspid valve", "same")]
    answers = view.answers_model
    column = answers.columns.index(told)
    kinds = {answers.entry(r, column).kind for r in range(answers.rowCount())}
    assert "extra" not in kinds and "missed" not in kinds

    view.session.undo_stack.undo()
    settle(view, qtbot)
    assert cell.data(SummaryRole).f1 == pytest.approx(2 / 3)
    assert view.session.project.lexicon.rows() == []
    view.session.undo_stack.redo()
    settle(view, qtbot)
    assert cell.data(SummaryRole).f1 == pytest.approx(1.0)


def test_marking_a_match_distinct_vetoes_it(view, qtbot):
    view.session.project.responses.record(
        answer("cell", "m/a", "told", ["nucleus", "ribosme"])  # one slip: fuzzy-matches "ribosome"
    )
    view.session.responses_changed.emit()
    settle(view, qtbot)
    cell = matrix_cell(view, "cell", "m/a", "told")
    assert cell.data(SummaryRole).f1 == pytest.approx(1.0)
    show(view, "cell", qtbot)

    click_answer(view, qtbot, Column("m/a", "told"), "matched", "ribosme")
    action = menu_action(view.active_menu, ("ribosme", "ribosome", "distinct"))
    assert "not “ribosome”" in action.text()
    action.trigger()
    settle(view, qtbot)

    assert cell.data(SummaryRole).f1 == pytest.approx(0.5)
    assert ("ribosome", "ribosme", "distinct") in view.session.project.lexicon.rows()


def test_contradicting_the_lexicon_is_refused_and_changes_nothing(view, qtbot):
    view.session.project.lexicon.add("mitral valve", "bicuspid valve", "distinct")
    view.session.lexicon_changed.emit()
    settle(view, qtbot)
    show(view, "heart", qtbot)
    click_answer(view, qtbot, Column("m/a", "told"), "extra", "bicuspid valve")
    action = menu_action(view.active_menu, ("bicuspid valve", "mitral valve", "same"))
    action.trigger()
    assert view.session.project.lexicon.rows() == [("mitral valve", "bicuspid valve", "distinct")]
    assert view.session.undo_stack.count() == 0
    assert matrix_cell(view, "heart", "m/a", "told").data(SummaryRole).f1 == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("all", ["heart", "cell"]),  # creation order
        ("different", ["heart"]),
        ("failures", ["cell"]),
        ("parse_errors", ["cell"]),
    ],
)
def test_filters_pick_the_items_that_need_a_look(view, qtbot, name, expected):
    view.filter.setCurrentIndex(view.filter.findData(name))
    assert view.matrix_model.item_ids == expected
    assert view.current_item_id() == expected[0]


def test_keyboard_steps_through_items_and_toggles_the_figure(view, qtbot):
    assert view.current_item_id() == "heart"
    view.matrix.setFocus()
    qtbot.keyClick(view.matrix, Qt.Key.Key_J)
    assert view.current_item_id() == "cell"
    assert view.position.text() == "Item 2 of 2"
    qtbot.keyClick(view.matrix, Qt.Key.Key_PageUp)
    assert view.current_item_id() == "heart"
    qtbot.keyClick(view.matrix, Qt.Key.Key_K)  # already first: stays
    assert view.current_item_id() == "heart"
    qtbot.keyClick(view.matrix, Qt.Key.Key_PageDown)
    assert view.current_item_id() == "cell"
    assert view.figure.erased.isChecked()
    qtbot.keyClick(view.matrix, Qt.Key.Key_E)
    assert view.figure.original.isChecked()


def test_selecting_a_cell_shows_its_audit_trail(view, qtbot):
    cell = matrix_cell(view, "cell", "m/b", "told")
    view.matrix.setCurrentIndex(cell)
    settle(view, qtbot)
    assert cell.data(SummaryRole).status == "api_error"
    text = view.details.toPlainText()
    assert "api_error" in text and "HTTP 500" in text
    parse = matrix_cell(view, "cell", "m/a", "no-image")
    view.matrix.setCurrentIndex(parse)
    settle(view, qtbot)
    assert "not json" in view.details.toPlainText()


def test_a_new_run_appears_without_reopening(view, qtbot):
    project = view.session.project
    project.responses.record(answer("heart", "m/c", "told", ["aorta", "mitral valve"]))
    view.session.responses_changed.emit()
    settle(view, qtbot)
    cell = matrix_cell(view, "heart", "m/c", "told")
    assert cell.data(SummaryRole).f1 == pytest.approx(0.8)


def test_a_resent_cell_shows_its_latest_answer_and_keeps_the_history(view, qtbot):
    project = view.session.project
    project.responses.record(answer("heart", "m/b", "told", ["aorta", "mitral valve", "vein"]))
    view.session.responses_changed.emit()
    settle(view, qtbot)
    cell = matrix_cell(view, "heart", "m/b", "told")
    assert cell.data(SummaryRole).f1 == pytest.approx(2 / 3)  # was 0.5 with "aorta" alone
    view.matrix.setCurrentIndex(cell)
    settle(view, qtbot)
    assert "1 earlier answer(s) kept" in view.details.toPlainText()


def test_review_keys_can_be_rebound(view, qtbot):
    registry = ShortcutRegistry()
    view.register_shortcuts(registry)
    assert {"review.next_item", "review.previous_item", "review.toggle_original"} <= set(
        registry.ids()
    )
    registry.set_keys({"review.next_item": "N"})
    view.matrix.setFocus()
    qtbot.keyClick(view.matrix, Qt.Key.Key_J)  # no longer bound
    assert view.current_item_id() == "heart"
    qtbot.keyClick(view.matrix, Qt.Key.Key_N)
    assert view.current_item_id() == "cell"


def test_a_stale_answer_is_marked_in_the_matrix_and_the_details(tmp_path, qtbot, session):
    project = heart_project(tmp_path / "p")
    project.items.update("heart", subject="the mammalian heart")  # answers were for "the heart"
    project.close()
    session.open(tmp_path / "p")
    view = ReviewView(session)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    settle(view, qtbot)
    index = matrix_cell(view, "heart", "m/a", "told")
    assert index.data(SummaryRole).stale is True
    assert "stale" in index.data(Qt.ItemDataRole.ToolTipRole)
    show(view, "heart", qtbot)
    view._show_details(Column("m/a", "told"))
    assert "older subject" in view.details.toPlainText()
    assert matrix_cell(view, "cell", "m/a", "told").data(SummaryRole).stale is False


def test_a_match_tooltip_names_the_expert_rule_that_made_it():
    from labeler.scoring import score_names
    from ui.review.answers import _tooltip, entries_for

    matched = entries_for(score_names(["B: aorta"], ["aorta"]), None)[1]
    assert _tooltip(matched) == (
        "“B: aorta” matched key name “aorta” (normalized: prefix B: dropped)"
    )
    plain = entries_for(score_names(["aorta"], ["aorta"]), None)[1]
    assert _tooltip(plain) == "“aorta” matched key name “aorta” (exact)"
