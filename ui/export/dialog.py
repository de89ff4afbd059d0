"""Export dialog: public or private, where to, which items; then what was written.

Before anything is written, the dialog shows whether the export would pass:
the core's :func:`labeler.export.exporter.check_export` (build and validate in
memory, no numbers assigned) runs on a worker whenever the choice changes. The
export itself is :func:`~labeler.export.exporter.export_project` (validate
everything, then write the folder atomically), also on a worker thread with its
own project connection. A failed validation writes nothing; the dialog shows
the reason instead of the file list.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from labeler.errors import LabelerError
from labeler.export.exporter import (
    EXPORT_STEPS,
    WRITING,
    ExportReport,
    check_export,
    export_project,
    report_lines,
    select_items,
)
from labeler.store import Project
from labeler.text.counted import counted
from ui import workers
from ui.progress import ProgressPanel
from ui.review.style import tone
from ui.session import Session


def run_export(
    folder: Path, out: Path, private: bool, only_ready: bool, control: workers.TaskControl
) -> ExportReport:
    """Export on a worker thread (a SQLite connection belongs to one thread), reporting each
    step; Cancel stops it up to the write (nothing written), never during it."""

    def step(name: str) -> None:
        control.check()
        control.progress(EXPORT_STEPS.index(name), len(EXPORT_STEPS), f"{name.capitalize()}…")
        if name == WRITING:
            control.commit()

    with Project.open(folder) as project:
        return export_project(project, out, private=private, only_ready=only_ready, step=step)


def run_check(folder: Path, private: bool, only_ready: bool) -> ExportReport:
    """Validate without writing, on a worker thread (own connection)."""
    with Project.open(folder) as project:
        return check_export(project, private=private, only_ready=only_ready)


class ExportDialog(QDialog):
    """Choose and run one export."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.worker: workers.Worker | None = None
        self.check_worker: workers.Worker | None = None
        self.check: ExportReport | None = None  # the latest passed check
        self.report: ExportReport | None = None
        project = session.require_project()
        self.setWindowTitle(f"Export {project.name}")
        self.setMinimumWidth(620)

        self.public = QRadioButton("Public: items.jsonl, results.jsonl, sample, dataset card")
        self.private = QRadioButton(
            "Private: also provenance.jsonl and audit.jsonl (sources, reviewers) — never publish"
        )
        self.public.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.public)
        group.addButton(self.private)
        self.folder = QLineEdit(str(project.folder.parent / "exports" / project.name))
        browse = QPushButton("Browse…")
        self.only_ready = QCheckBox("Only items marked ready")
        self.scope = QLabel()
        self.validation = QLabel()
        self.validation.setWordWrap(True)
        self.validation.setTextFormat(Qt.TextFormat.RichText)
        self.result = QTextBrowser()
        self.result.setPlaceholderText("What the export wrote appears here.")
        self.result.setMinimumHeight(180)
        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(
            "Export", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)

        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        kind = QVBoxLayout()
        kind.addWidget(self.public)
        kind.addWidget(self.private)
        form = QFormLayout()
        form.addRow("Kind", kind)
        form.addRow("Folder", folder_row)
        form.addRow("Items", self.only_ready)
        form.addRow("", self.scope)
        form.addRow("Validation", self.validation)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.result, 1)
        self.progress = ProgressPanel(self)  # the export's steps; Cancel up to the write
        layout.addWidget(self.progress)
        layout.addWidget(self.buttons)

        browse.clicked.connect(self._browse)
        self.only_ready.toggled.connect(lambda _: self._update_scope())
        self.private.toggled.connect(lambda _: self.start_check())
        self.export_button.clicked.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        self._update_scope()

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Export into", self.folder.text())
        if path:
            self.folder.setText(path)

    def _update_scope(self) -> None:
        project = self.session.require_project()
        items = select_items(project, only_ready=self.only_ready.isChecked())
        excluded = sum(1 for i in project.items.list() if i.status == "excluded")
        self.scope.setText(
            f"{len(items)} item(s) will be exported"
            + (f"; {excluded} excluded item(s) never are" if excluded else "")
        )
        self.export_button.setEnabled(bool(items) and self.worker is None)
        self.start_check()

    def start_check(self) -> None:
        """Validate the current choice on a worker; the newest check's answer is shown."""
        if self.check_worker is not None:
            self.check_worker.cancel()
        self.check = None
        self.validation.setText("Checking…")
        project = self.session.require_project()
        worker = workers.Worker(
            run_check, project.folder, self.private.isChecked(), self.only_ready.isChecked()
        )
        worker.deliver_to(
            self,
            result=lambda report: self._checked(worker, report),
            error=lambda exc: self._check_failed(worker, exc),
        )
        self.check_worker = workers.start(worker)

    def _checked(self, worker: workers.Worker, report: ExportReport) -> None:
        if worker is not self.check_worker:
            return  # an older check finished after a newer one started
        self.check_worker, self.check = None, report
        ok = tone(self.palette(), "matched").name()
        text = (
            f"Valid: {counted(report.n_items, 'item')}, {counted(report.n_rows, 'row')}, "
            f"{counted(report.n_models, 'model')}"
        )
        if report.new_ids:
            text += f"; {report.new_ids} item(s) will get new public IDs"
        self.validation.setText(f"<span style='color:{ok}'>{html.escape(text)}</span>")

    def _check_failed(self, worker: workers.Worker, exc: BaseException) -> None:
        if worker is not self.check_worker:
            return
        self.check_worker = None
        bad = tone(self.palette(), "failure").name()
        reason = str(exc) if isinstance(exc, LabelerError) else f"{type(exc).__name__}: {exc}"
        self.validation.setText(f"<span style='color:{bad}'>{html.escape(reason)}</span>")

    def start(self) -> None:
        """Validate and write on a worker thread."""
        out = Path(self.folder.text().strip()).expanduser()
        if not self.folder.text().strip():
            self._show_error("Choose a folder to export into.")
            return
        project = self.session.require_project()
        self.export_button.setEnabled(False)
        self.result.setHtml("Validating and writing…")
        worker = workers.Worker(
            run_export,
            project.folder,
            out,
            self.private.isChecked(),
            self.only_ready.isChecked(),
            pass_control=True,
        )
        worker.signals.result.connect(self._done)
        worker.signals.error.connect(self._failed)
        worker.signals.cancelled.connect(self._cancelled)
        worker.signals.finished.connect(self._ended)
        self.progress.follow(worker, "Exporting…")
        self.worker = workers.start(worker)

    def _cancelled(self) -> None:
        self.result.setHtml("Export cancelled. Nothing was written.")

    def _done(self, report: ExportReport) -> None:
        self.report = report
        ok = tone(self.palette(), "matched").name()
        lines = "".join(f"<li>{html.escape(line.strip())}</li>" for line in report_lines(report))
        self.result.setHtml(
            f"<p style='color:{ok}'><b>Validation passed.</b> Written to "
            f"{html.escape(str(report.folder))}</p><ul>{lines}</ul>"
        )
        self.session.status_message.emit(f"Exported {report.n_items} items to {report.folder}")
        # Public IDs may have been assigned: the item lists show them.
        self.session.items_changed.emit()

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, LabelerError):
            self._show_error(f"{exc}<br>Nothing was written.")
        else:
            self._show_error(f"Unexpected error: {type(exc).__name__}: {exc}. Nothing was written.")

    def _show_error(self, message: str) -> None:
        bad = tone(self.palette(), "failure").name()
        self.result.setHtml(f"<p style='color:{bad}'><b>Export failed.</b> {message}</p>")

    def _ended(self) -> None:
        self.worker = None
        self._update_scope()
