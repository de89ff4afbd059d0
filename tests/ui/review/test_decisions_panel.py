"""The Decisions panel driven like a reviewer, in Review and in Curate."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from labeler.agreement import add_curator_key
from labeler.results import counted_results
from tests.ui.factory import heart_project
from tests.ui.gui_helpers import open_review, wait_idle
from ui import settings
from ui.curate.view import CurateView
from ui.review.matrix import SummaryRole


@pytest.fixture
def view(tmp_path, qtbot, session):
    heart_project(tmp_path / "p").close()
    return open_review(qtbot, session, tmp_path / "p")


def _f1(session, item_id, model, condition) -> float:
    cells = counted_results(session.project, [item_id])
    return next(c.f1 for c in cells if (c.model, c.condition) == (model, condition))


def _history(panel) -> list[str]:
    return [panel.history.item(r).text() for r in range(panel.history.count())]


def _click(qtbot, button) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot)


def test_override_a_cell_in_review_then_undo_it(view, qtbot, dialogs):
    matrix = view.matrix_model
    row = matrix.item_ids.index("heart")
    column = next(
        i for i, c in enumerate(matrix.columns) if (c.model, c.condition) == ("m/a", "told")
    )
    view.matrix.setCurrentIndex(matrix.index(row, column))
    panel = view.decisions
    view.side.setCurrentWidget(panel)
    assert panel.item_id == "heart" and panel.cell == ("m/a", "told")
    assert "m/a · told" in panel.cell_label.text()
    assert _f1(view.session, "heart", "m/a", "told") == pytest.approx(2 / 3)

    # no reviewer name yet: refused, nothing recorded
    panel.score.setCurrentText("correct")
    qtbot.keyClicks(panel.reason, "bicuspid valve is the mitral valve")
    _click(qtbot, panel.override_button)
    assert dialogs and "say who is reviewing" in dialogs[-1][0] + dialogs[-1][1]
    assert view.session.project.reviews.events() == []

    qtbot.keyClicks(panel.reviewer, "Ada")
    _click(qtbot, panel.override_button)
    assert settings.reviewer_name() == "Ada"
    assert _f1(view.session, "heart", "m/a", "told") == 1.0
    (line,) = _history(panel)
    assert "Ada: overrode m/a · told score → 1: bicuspid valve is the mitral valve" in line
    assert panel.reason.text() == ""
    # the matrix shows the number that counts, and the raw-answer pane says whose it is
    qtbot.waitUntil(lambda: not view.loading, timeout=20000)  # the matrix re-reads on a worker
    view.matrix.setCurrentIndex(matrix.index(row, column))
    assert view.matrix_model.index(row, column).data(SummaryRole).f1 == 1.0
    assert "Score overridden" in view.details.toHtml()

    panel.history.setCurrentRow(0)
    _click(qtbot, panel.undo_button)
    assert _f1(view.session, "heart", "m/a", "told") == pytest.approx(2 / 3)
    qtbot.waitUntil(lambda: not view.loading, timeout=20000)
    cell = view.matrix_model.index(matrix.item_ids.index("heart"), column)
    assert cell.data(SummaryRole).f1 == pytest.approx(2 / 3)
    lines = _history(panel)
    assert lines[0].endswith("[undone by Ada]") and "undid decision 1" in lines[1]
    assert panel.history.item(0).font().strikeOut()
    panel.history.setCurrentRow(1)
    assert not panel.undo_button.isEnabled()  # an undo is not undone; decide again instead


def test_comment_on_a_cell_and_approve_in_review(view, qtbot):
    settings.set_reviewer_name("Grace")
    panel = view.decisions
    panel.reviewer.setText(settings.reviewer_name())
    view.select_row(view.matrix_model.item_ids.index("cell"), 0)
    qtbot.keyClicks(panel.comment_text, "the ribosome label is tiny")
    _click(qtbot, panel.comment_button)
    assert view.session.project.items.get("cell").status == "draft"
    _click(qtbot, panel.approve_button)
    assert view.session.project.items.get("cell").status == "ready"
    first, second = _history(panel)
    model, condition = panel.cell
    assert f"Grace: commented {model} · {condition}: the ribosome label is tiny" in first
    assert "Grace: approved (ready)" in second


def test_curate_shows_an_items_approvals_and_undoes_them(tmp_path, qtbot, session):
    heart_project(tmp_path / "p").close()
    session.open(tmp_path / "p")
    settings.set_reviewer_name("Linus")
    view = CurateView(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    view.show_item("cell")
    wait_idle(qtbot)
    panel = view.decisions
    view.centre.setCurrentWidget(panel)
    assert panel.item_id == "cell" and not panel.override_button.isVisible()
    assert _history(panel) == ["No decisions yet."]
    _click(qtbot, panel.approve_button)
    assert session.project.items.get("cell").status == "ready"
    assert view.form.combos["status"].currentText() == "ready"  # the item form followed
    panel.history.setCurrentRow(0)
    _click(qtbot, panel.undo_button)
    assert session.project.items.get("cell").status == "draft"
    assert view.form.combos["status"].currentText() == "draft"
    assert "[undone by Linus]" in _history(panel)[0]


def test_the_agreement_table_lists_disagreements_and_opens_the_item(view, qtbot):
    project = view.session.project
    add_curator_key(project, "heart", "Grace", ["mitral valve", "aorta", "right atrium"])
    add_curator_key(project, "cell", "Grace", ["Nucleus", "ribosomes"])  # a plural: agrees
    view.select_row(view.matrix_model.item_ids.index("cell"))
    view.session.items_changed.emit()
    view.side.setCurrentWidget(view.agreement)
    wait_idle(qtbot)
    panel = view.agreement
    # two of three names shared on the heart (P = R = 2/3), the cell agrees (1.0)
    assert "Key agreement <b>0.833</b>" in panel.summary.text()
    assert "over 2 figures; 1 to resolve" in panel.summary.text()
    assert panel.table.rowCount() == 1
    row = [panel.table.item(0, c).text() for c in range(panel.table.columnCount())]
    assert row == ["heart", "the heart", "Grace", "0.67", "left atrium", "right atrium"]
    rect = panel.table.visualItemRect(panel.table.item(0, 0))
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.current_item_id() == "heart"
