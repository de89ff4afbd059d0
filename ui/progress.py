"""One way to show long work: a bar, what is happening, and Cancel.

:class:`ProgressPanel` follows any :class:`ui.workers.Worker` (several at once:
the newest one's message is shown). Jobs that report steps
(``TaskControl.progress``) fill the bar; others show it busy. Cancel asks every
followed job to stop (:meth:`ui.workers.Worker.cancel`): a queued one never
starts, a running one stops at its next check, and a job that finishes anyway
has its result dropped by the worker, so a cancelled operation never lands
half-way in a view. The panel hides when the last job ends.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from ui import workers


class ProgressPanel(QWidget):
    """Bar + message + Cancel for the jobs it follows; hidden while there are none."""

    cancelled = Signal()  # the curator pressed Cancel

    def __init__(self, parent: QWidget | None = None, *, compact: bool = False) -> None:
        super().__init__(parent)
        self.jobs: list[workers.Worker] = []
        self.bar = QProgressBar(self)
        self.bar.setTextVisible(False)
        self.bar.setFixedHeight(12)
        self.bar.setMinimumWidth(70 if compact else 120)
        self.message = QLabel(self)
        self.message.setStyleSheet("color: palette(placeholder-text);")
        self.message.setVisible(not compact)
        self.cancel_button = QToolButton(self)
        self.cancel_button.setText("Cancel")
        self.cancel_button.setToolTip("Stop this operation; nothing half-done is kept")
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        row.setSpacing(6)
        row.addWidget(self.message, 1)
        row.addWidget(self.bar)
        row.addWidget(self.cancel_button)
        self.hide()

    def follow(self, job: workers.Worker, message: str) -> workers.Worker:
        """Show ``job``'s progress until it finishes; Cancel will cancel it."""
        self.jobs.append(job)
        job.signals.progress.connect(self._progressed)
        # a job may end after this panel's window was closed: then nothing is left to hide
        job.deliver_to(self, finished=lambda: self._ended(job))
        self.bar.setRange(0, 0)  # busy until the job reports a step
        self._say(message)
        self.cancel_button.setEnabled(True)
        self.show()
        return job

    def cancel(self) -> None:
        """Ask every followed job to stop."""
        for job in self.jobs:
            job.cancel()
        self.cancel_button.setEnabled(False)
        self._say("Cancelling…")
        self.cancelled.emit()

    def _progressed(self, done: int, total: int, message: str) -> None:
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
        if message:
            self._say(message)

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.setToolTip(text)

    def _ended(self, job: workers.Worker) -> None:
        if job in self.jobs:
            self.jobs.remove(job)
        if not self.jobs:
            self.hide()
