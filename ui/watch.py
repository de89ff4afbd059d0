"""Notice another process's writes to the open project (a ``labeler run`` in a terminal).

SQLite tells each connection, through ``PRAGMA data_version``
(:func:`labeler.store.summaries.data_version`), whether any *other* connection
has committed since it last asked; reading it touches no table, so polling it
every :data:`POLL_MS` on the GUI thread costs microseconds. When it moves, the
watcher emits ``session.responses_changed``: every list (Curate's items, Review,
Leaderboard, Run) re-reads the project on its workers, coalescing bursts, so a
run storing answers in another process shows up without the curator doing anything.
The window's own writes do not move the counter; they emit their own signals. The
window's workers write score-cache rows through their own connections, which do move
it, so a moved counter is confirmed by :func:`labeler.store.summaries.content_digest`
(answers, decisions, items, lexicon) before the views are told.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from labeler.store.summaries import content_digest, data_version
from ui.session import Session

POLL_MS = 1500


class ProjectWatcher(QObject):
    """Polls the open project's change counter and tells the views when it moved."""

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._seen: int | None = None
        self._content: int | None = None
        self.timer = QTimer(self, interval=POLL_MS)
        self.timer.timeout.connect(self.poll)
        session.project_opened.connect(self._opened)
        session.project_closed.connect(self._closed)
        # the window's own writes announce themselves: they are the new baseline, not news
        session.items_changed.connect(self._own_write)
        session.item_changed.connect(self._own_write)
        session.lexicon_changed.connect(self._own_write)

    def _opened(self) -> None:
        project = self.session.require_project()
        self._seen, self._content = data_version(project), content_digest(project)
        self.timer.start()

    def _own_write(self, *_: object) -> None:
        project = self.session.project
        if project is not None and self._content is not None:
            self._content = content_digest(project)

    def _closed(self) -> None:
        self.timer.stop()
        self._seen = self._content = None

    def poll(self) -> bool:
        """Check once; True (and the views told) if another process wrote since the last check."""
        project = self.session.project
        if project is None:
            return False
        version = data_version(project)
        if version == self._seen:
            return False
        self._seen = version
        content = content_digest(project)
        if content == self._content:  # only score-cache rows: our own workers' writes
            return False
        self._content = content
        self.session.responses_changed.emit()
        return True
