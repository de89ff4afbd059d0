"""Undoable lexicon edits, shared by the Review and Lexicon views.

A lexicon edit changes every score it touches, so each command writes the row
through the store, then emits ``session.lexicon_changed`` on redo *and* undo:
whichever view is showing scores recomputes them.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from labeler.lexicon import Lexicon
from ui.session import Session

Row = tuple[str, str, str]


def check_addition(session: Session, rows: list[Row]) -> None:
    """Raise the core's ``ConfigError`` if adding ``rows`` would make the lexicon inconsistent.

    The store accepts any row; the core's :class:`Lexicon` refuses contradictions
    (a pair both ``same`` and ``distinct``). Checking first means a refused edit
    never reaches the database or the undo stack.
    """
    project = session.require_project()
    Lexicon.from_rows([*project.lexicon.rows(), *rows])


class LexiconEdit(QUndoCommand):
    """Add (or remove) project lexicon rows; undo does the opposite."""

    def __init__(
        self, session: Session, rows: list[Row], *, remove: bool = False, text: str = ""
    ) -> None:
        verb = "Remove" if remove else "Add"
        super().__init__(text or f"{verb} {len(rows)} lexicon row(s)")
        self.session = session
        self.rows = rows
        self.remove = remove
        self._changed: list[Row] = []  # rows this command really added/removed

    def redo(self) -> None:
        table = self.session.require_project().lexicon
        with self.session.require_project().transaction():
            op = table.remove if self.remove else table.add
            self._changed = [row for row in self.rows if op(*row)]
        self.session.lexicon_changed.emit()

    def undo(self) -> None:
        table = self.session.require_project().lexicon
        with self.session.require_project().transaction():
            op = table.add if self.remove else table.remove
            for row in self._changed:
                op(*row)
        self.session.lexicon_changed.emit()


def promote(session: Session, predicted: str, key_name: str, relation: str) -> None:
    """Record that ``predicted`` means (``same``) or does not mean (``distinct``) ``key_name``.

    The key name is the canonical side. Raises ``ConfigError`` (nothing changed)
    when the row contradicts the lexicon.
    """
    row = (key_name, predicted, relation)
    check_addition(session, [row])
    word = "same as" if relation == "same" else "distinct from"
    session.undo_stack.push(LexiconEdit(session, [row], text=f"“{predicted}” {word} “{key_name}”"))
    session.status_message.emit(f"Lexicon: “{predicted}” {word} “{key_name}”")
