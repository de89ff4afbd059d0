"""Notice another process's writes to the open project (a ``labeler run`` in a terminal).

SQLite tells each connection, through ``PRAGMA data_version``
(:func:`labeler.store.summaries.data_version`), whether any *other* connection
has committed since it last asked; reading it touches no table, so polling it
every :data:`POLL_MS` on the GUI thread costs microseconds. When it moves, the
watcher emits ``session.responses_changed``: every list (Curate's items, Review,
Leaderboard, Run) re-reads the project on its workers, coalescing bursts, so a
run storing answers in another process shows up without the curator doing anything.
The window's own writes do not move the counter; they emit their own signals.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from labeler.store.summaries import data_version
from ui.session import Session

POLL_MS = 1500


class ProjectWatcher(QObject):
    """Polls the open project's change counter and tells the views when it moved."""

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._seen: int | None = None
        self.timer = QTimer(self, interval=POLL_MS)
        self.timer.timeout.connect(self.poll)
        session.project_opened.connect(self._opened)
        session.project_closed.connect(self._closed)

    def _opened(self) -> None:
        self._seen = data_version(self.session.require_project())
        self.timer.start()

    def _closed(self) -> None:
        self.timer.stop()
        self._seen = None

    def poll(self) -> bool:
        """Check once; True (and the views told) if another process wrote since the last check."""
        project = self.session.project
        if project is None:
            return False
        version = data_version(project)
        if version == self._seen:
            return False
        self._seen = version
        self.session.responses_changed.emit()
        return True
