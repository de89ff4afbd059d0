"""A view's answer to "the project changed": reload now if it is shown, else when it next is.

Review, Leaderboard, Agreement and the Lexicon's suggestions each read the whole project on
a worker; doing that for every change while the view is hidden behind another tab would keep
a worker busy for nothing. So a change only marks the view stale, and showing it reloads it once.
:class:`ReloadWhenShown` is that rule, written once: it watches the view's show events (an
event filter), so the view needs no ``showEvent`` of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class ReloadWhenShown(QObject):
    """Call ``reload`` for ``view`` at once if it is visible, else at its next show.

    Stale from the start (a view built before its project opens reloads on first show).
    ``reload`` itself sets :attr:`stale` to False, so a reload the view starts on its own
    (a button, a test) counts too.
    """

    def __init__(self, view: QWidget, reload: Callable[[], None]) -> None:
        super().__init__(view)
        self._view = view
        self._reload = reload
        self.stale = True
        view.installEventFilter(self)

    def invalidate(self, *_: object) -> None:
        """The project changed (a slot for any session signal; its arguments are ignored)."""
        self.stale = True
        if self._view.isVisible():
            self._reload()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._view and event.type() == QEvent.Type.Show and self.stale:
            self._reload()
        return False  # the view still gets its show event
