"""Curate's "Scan document for figures": every labelled figure of the open document, to accept.

The scan (:func:`labeler.scan.scan_document`) and the adding
(:func:`labeler.scan.add_candidates`) run as cancellable jobs on the general pool, each with
its own project connection; this dialog only lists, ticks and reports. A book of hundreds of
pages never blocks the window: the shared progress panel (:mod:`ui.progress`) moves page by
page, or figure by figure while adding, and its Cancel stops either at the next one (figures
already added stay, as the summary says).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from labeler.scan import Candidate, Outcome, add_candidates, scan_document
from ui import workers
from ui.errors import show_error
from ui.progress import ProgressPanel
from ui.session import Session

COLUMNS = ("Page", "Labels", "With leaders", "Caption")


def _scan(path: str, password: str | None, control: workers.TaskControl) -> list[Candidate]:
    def progress(done: int, total: int) -> None:
        control.check()
        control.progress(done, total, f"page {done} of {total}")

    return scan_document(path, password=password, on_page=progress)


def _add(
    folder: str,
    path: str,
    chosen: list[Candidate],
    password: str | None,
    control: workers.TaskControl,
) -> list[Outcome]:
    from labeler.store import Project

    done: list[Outcome] = []

    def each(outcome: Outcome) -> None:
        done.append(outcome)
        control.progress(len(done), len(chosen), f"figure {len(done)} of {len(chosen)}")
        control.check()  # cancelled: stop before the next figure; those added stay

    with Project.open(folder) as project:
        return add_candidates(project, path, chosen, password=password, on_each=each)


class ScanDialog(QDialog):
    """Scan ``path``, list its labelled figures (all ticked), add the ticked ones as drafts."""

    def __init__(
        self, session: Session, path: str, password: str | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scan document for labelled figures")
        self.resize(720, 460)
        self.session, self.path, self.password = session, path, password
        self.found: list[Candidate] = []
        self.outcomes: list[Outcome] = []
        self.summary = QLabel("Scanning…")
        self.progress = ProgressPanel(self)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.add_button = QPushButton("Add ticked figures as items")
        self.add_button.setEnabled(False)
        self.buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.add_button.clicked.connect(self.add_ticked)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.summary, self.progress, self.table, self.buttons):
            layout.addWidget(widget)
        self.job = workers.Worker(_scan, path, password, pass_control=True).deliver_to(
            self, result=self._scanned, error=self._failed
        )
        self.job.signals.progress.connect(self._progressed)
        self.job.signals.cancelled.connect(lambda: self.summary.setText("Scan cancelled."))
        self.progress.follow(self.job, "Scanning…")
        workers.start(self.job, workers.general_pool(), workers.PRIORITY_USER)

    def reject(self) -> None:
        """Close (a running scan is cancelled: it stops at the next page)."""
        self.job.cancel()
        super().reject()

    def _progressed(self, done: int, total: int, message: str) -> None:
        self.summary.setText(f"Scanning {message}…")

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText("The scan failed.")
        show_error(exc, self)

    def _scanned(self, found: list[Candidate]) -> None:
        self.found = found
        self.table.setRowCount(len(found))
        for row, c in enumerate(found):
            labels = "image" if c.labels is None else str(c.labels)
            leaders = "" if c.with_leaders is None else str(c.with_leaders)
            cells = (str(c.page), labels, leaders, c.caption or "")
            for column, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setToolTip(text)
                if column == 0:
                    cell.setFlags(cell.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                    cell.setCheckState(Qt.CheckState.Checked)
                self.table.setItem(row, column, cell)
        self.summary.setText(
            f"{len(found)} labelled figure(s) found. Untick any you do not want, then add them."
        )
        self.add_button.setEnabled(bool(found))

    def ticked(self) -> list[Candidate]:
        """The candidates whose row is ticked."""
        return [
            c
            for row, c in enumerate(self.found)
            if self.table.item(row, 0).checkState() == Qt.CheckState.Checked
        ]

    def add_ticked(self) -> None:
        """Erase and store every ticked figure as a draft item (in a job)."""
        chosen = self.ticked()
        if not chosen:
            return
        self.add_button.setEnabled(False)
        self.summary.setText(f"Adding {len(chosen)} figure(s)…")
        folder = str(self.session.require_project().folder)
        job = workers.Worker(
            _add, folder, self.path, chosen, self.password, pass_control=True
        ).deliver_to(self, result=self._added, error=self._failed)
        job.signals.cancelled.connect(self._add_cancelled)
        self.progress.follow(job, f"Adding {len(chosen)} figure(s)…")
        workers.start(job, workers.general_pool(), workers.PRIORITY_USER)

    def _add_cancelled(self) -> None:
        self.summary.setText("Adding cancelled; the figures added before it stay (see Items).")
        self.add_button.setEnabled(True)
        self.session.items_changed.emit()

    def _added(self, outcomes: list[Outcome]) -> None:
        self.outcomes = outcomes
        added = sum(1 for o in outcomes if o.item_id)
        skipped = sum(1 for o in outcomes if o.duplicate_of)
        failed = [o for o in outcomes if o.error]
        text = f"{added} added, {skipped} already items"
        if failed:
            text += f", {len(failed)} failed (page {failed[0].candidate.page}: {failed[0].error})"
        self.summary.setText(text)
        self.session.items_changed.emit()
