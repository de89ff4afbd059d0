"""Edit ▸ Undo and Redo: the session's undo stack, or the undo of the panel that has focus.

Edits (keys, fields, images, lexicon rows) are commands on ``session.undo_stack`` and can be
undone and redone in order. A reviewer's decision is different: it is an entry in an
append-only audit trail, and undoing it appends a reversal made on a worker
(:mod:`labeler.review`), so it cannot sit on a synchronous undo stack. A panel that keeps such
decisions offers its own undo (:class:`UndoOwner`), and while focus is inside it, Ctrl+Z and
Edit ▸ Undo undo its newest decision instead of the newest edit; the menu names which, so the
reviewer sees what Ctrl+Z will do before pressing it. Redo is for edits only (a decision is
made again with its button), so it is off while such a panel has focus.

One action, not one per panel: two actions on one key would be ambiguous and neither fire.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QUndoStack
from PySide6.QtWidgets import QApplication, QMenu, QWidget


@runtime_checkable
class UndoOwner(Protocol):
    """A panel with an undo of its own (the Decisions panel)."""

    undo_changed: Signal  # what undo_text says may have changed

    def undo_text(self) -> str | None:
        """What Undo would undo here (e.g. "approval of heart"), or None: nothing."""

    def undo_last(self) -> None:
        """Undo it."""


def owner_of(widget: QWidget | None) -> UndoOwner | None:
    """The panel with its own undo that ``widget`` is inside, if any."""
    while widget is not None:
        if isinstance(widget, UndoOwner):
            return widget
        widget = widget.parentWidget()
    return None


class EditUndo(QObject):
    """The Edit menu's Undo and Redo actions, following the focus."""

    def __init__(self, stack: QUndoStack, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stack = stack
        self.undo_action = QAction("&Undo", parent)
        self.redo_action = QAction("&Redo", parent)
        self.undo_action.triggered.connect(self.undo)
        self.redo_action.triggered.connect(self.redo)
        self.owner: UndoOwner | None = None
        for signal in (
            stack.canUndoChanged,
            stack.canRedoChanged,
            stack.undoTextChanged,
            stack.redoTextChanged,
        ):
            signal.connect(self.update)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)
        self.update()

    def undo(self) -> None:
        """Undo the focused panel's newest decision, else the newest edit."""
        if self.owner is not None:
            self.owner.undo_last()
        else:
            self.stack.undo()

    def redo(self) -> None:
        """Redo the edit undone last (never while a panel with its own undo has focus)."""
        if self.owner is None:
            self.stack.redo()

    def update(self) -> None:
        """Name what Undo and Redo would do now, and enable them only when they would."""
        if self.owner is not None:
            text = self.owner.undo_text()
            self._show(self.undo_action, "&Undo", text)
            self._show(self.redo_action, "&Redo", None)
        else:
            can_undo, can_redo = self.stack.canUndo(), self.stack.canRedo()
            self._show(self.undo_action, "&Undo", self.stack.undoText() if can_undo else None)
            self._show(self.redo_action, "&Redo", self.stack.redoText() if can_redo else None)

    @staticmethod
    def _show(action: QAction, verb: str, what: str | None) -> None:
        action.setText(f"{verb} {what}" if what else verb)
        action.setEnabled(what is not None)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or isinstance(new.window(), QMenu):
            return  # the menu itself: Undo still means what it meant where the user was
        owner = owner_of(new)
        if owner is self.owner:
            return
        if self.owner is not None:
            with suppress(RuntimeError):  # the panel may be gone (its window closed)
                self.owner.undo_changed.disconnect(self.update)
        self.owner = owner
        if owner is not None:
            owner.undo_changed.connect(self.update)
        self.update()
