"""The GUI's shared state: the open project, one undo stack, and change signals.

Every view gets the same :class:`Session`. Views never talk to each other
directly: they change the project through the core (``labeler``), push an
undo command on ``session.undo_stack``, and emit the matching signal; other
views refresh themselves from the signal. This keeps each view small and the
logic in the core.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from labeler.store import Project


class Session(QObject):
    """One open project and the signals that say what changed in it."""

    project_opened = Signal()
    project_closed = Signal()  # views stop timers and drop anything read from the project
    items_changed = Signal()  # items added, removed, or their fields edited
    item_changed = Signal(str)  # one item's key, images or fields changed
    lexicon_changed = Signal()  # synonym/distinct rows changed: scores must be recomputed
    responses_changed = Signal()  # a run stored new responses
    status_message = Signal(str)  # a line for the status bar

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.project: Project | None = None
        self.undo_stack = QUndoStack(self)
        # passwords of encrypted source PDFs, by path: asked once per run and kept
        # only here in memory, never in settings, the project or a log
        self.passwords: dict[str, str] = {}

    def open(self, folder: str | Path) -> Project:
        """Open a project folder (closing the previous one) and tell every view."""
        project = Project.open(folder)
        self.close()
        self.project = project
        self.undo_stack.clear()
        self.project_opened.emit()
        return project

    def close(self) -> None:
        """Close the open project, if any, and tell every view."""
        if self.project is None:
            return
        project, self.project = self.project, None
        self.undo_stack.clear()  # its commands refer to the closed project
        project.close()
        self.project_closed.emit()

    def require_project(self) -> Project:
        """The open project; views call this only when one is open."""
        if self.project is None:
            raise RuntimeError("no project is open")
        return self.project
