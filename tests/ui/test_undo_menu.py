"""Ctrl+Z follows the focus: in the Decisions panel it undoes the reviewer's newest decision,
elsewhere the newest edit; Edit ▸ Undo names which before it is pressed.

Driven in the Curate view of the main window, with real key presses on the focused widget
and decisions recorded in the project's real audit trail.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from labeler import review
from tests.ui.curate.test_edit_conflict import open_stored
from tests.ui.gui_helpers import wait_idle


def focus(qtbot, window, widget) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget)


def ctrl_z(widget) -> None:
    QTest.keyClick(widget, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def decide(qtbot, button) -> None:
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot)


def in_force(window, item_id: str) -> list[str]:
    decisions = review.history(window.session.require_project(), item_id)
    return [d.event.kind for d in decisions if d.event.kind != "undo" and d.undone_by is None]


def test_ctrl_z_in_the_decisions_panel_undoes_the_decision_and_elsewhere_the_edit(qtbot, window):
    view, item_id = open_stored(qtbot, window)
    project = window.session.require_project()
    undo, redo = window.edit_undo.undo_action, window.edit_undo.redo_action
    model = view.key.model
    assert model.setData(model.index(0, 0), "Nucleolus")  # an edit on the undo stack
    wait_idle(qtbot)

    panel = view.decisions
    view.centre.setCurrentWidget(panel)
    panel.reviewer.setText("Ana")
    panel.reviewer.editingFinished.emit()
    decide(qtbot, panel.confirm_button)
    panel.comment_text.setText("labels checked against the plate")
    decide(qtbot, panel.comment_button)
    assert in_force(window, item_id) == ["confirm-key", "comment"]

    focus(qtbot, window, panel.history)
    assert undo.text() == f"&Undo comment of {item_id} (Ana)"
    assert undo.isEnabled() and not redo.isEnabled()  # a decision is made again, not redone
    ctrl_z(panel.history)
    wait_idle(qtbot)
    assert in_force(window, item_id) == ["confirm-key"]
    assert project.items.key(item_id)[0].name == "Nucleolus"  # the edit stays
    assert undo.text() == f"&Undo key confirmation of {item_id} (Ana)"
    ctrl_z(panel.history)
    wait_idle(qtbot)
    assert in_force(window, item_id) == []
    assert undo.text() == "&Undo" and not undo.isEnabled()
    trail = [d.event.kind for d in review.history(project, item_id)]
    assert trail == ["confirm-key", "comment", "undo", "undo"]  # reversals appended, kept

    # another reviewer's decisions are not this reviewer's to undo with Ctrl+Z
    review.comment(project, item_id, "also fine", reviewer="Ben")
    panel.refresh()
    assert undo.text() == "&Undo" and not undo.isEnabled()

    # out of the panel, Ctrl+Z is the edit again, named as such
    focus(qtbot, window, view.key.table)
    assert undo.text() == "&Undo Rename label" and undo.isEnabled()
    ctrl_z(view.key.table)
    wait_idle(qtbot)
    assert project.items.key(item_id)[0].name == "Nucleus"
    assert redo.text() == "&Redo Rename label" and redo.isEnabled()
    assert in_force(window, item_id) == ["comment"]  # Ben's, untouched
