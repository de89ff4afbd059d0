"""The Agreement table: figures two curators keyed differently, worst first, to resolve.

Reads :func:`labeler.agreement.curator_agreement` on a worker (it scores every second key)
when shown and whenever an item changed; double-clicking a row opens that item in Review.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from labeler.agreement import Agreement, curator_agreement
from labeler.store import Project
from ui import workers
from ui.errors import show_error
from ui.session import Session
from ui.when_shown import ReloadWhenShown

HEADERS = ("Item", "Subject", "Second curator", "F1", "Only in the key", "Only in theirs")


def load_agreement(folder: Path) -> Agreement:
    """The project's curator agreement, on a pool thread with its own connection."""
    with Project.open(folder) as project:
        return curator_agreement(project)


class AgreementPanel(QWidget):
    """Mean key agreement and the disagreements to resolve."""

    item_chosen = Signal(str)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.found: Agreement | None = None
        self.job: workers.Worker | None = None
        self.when_shown = ReloadWhenShown(self, self.reload)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, len(HEADERS))
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        self.table.cellDoubleClicked.connect(self._chosen)
        for signal in (session.project_opened, session.items_changed, session.item_changed):
            signal.connect(self.when_shown.invalidate)

    def reload(self) -> None:
        """Compute agreement again, off the GUI thread."""
        project = self.session.project
        self.when_shown.stale = False
        if project is None:
            self._show(None)
            return
        self.summary.setText("Comparing keys…")
        job = workers.Worker(load_agreement, project.folder)
        job.deliver_to(self, self._show, lambda exc: show_error(exc, self, "Agreement"))
        self.job = workers.start(job)

    def _show(self, found: Agreement | None) -> None:
        self.found, self.job = found, None
        rows = found.disagreements if found is not None else ()
        if found is None or found.mean_f1 is None:
            self.summary.setText(
                "No figure has a second curator's key yet "
                "(<code>labeler items add-key DIR ID --curator NAME</code>)."
            )
        else:
            n = len(found.comparisons)
            self.summary.setText(
                f"Key agreement <b>{found.mean_f1:.3f}</b> (mean name-set F1) over {n} "
                f"figure{'s' if n != 1 else ''}; {len(rows)} to resolve."
            )
        self.table.setRowCount(len(rows))
        for r, c in enumerate(rows):
            values = (
                c.item_id,
                c.subject,
                c.second,
                f"{c.f1:.2f}",
                "; ".join(c.only_first),
                "; ".join(c.only_second),
            )
            for col, text in enumerate(values):
                cell = QTableWidgetItem(text)
                cell.setToolTip(text)
                if col == 3:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(r, col, cell)
        self.table.resizeColumnsToContents()
        self.table.resizeRowsToContents()

    def _chosen(self, row: int, _column: int) -> None:
        cell = self.table.item(row, 0)
        if cell is not None:
            self.item_chosen.emit(cell.text())
