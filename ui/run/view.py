"""Run: choose models, conditions and items; see the cost first; watch it run.

The run happens in a child process (:mod:`ui.run.worker`, decision 0006), so the
window stays responsive; Cancel stops it between calls and everything finished is already
stored. Starting the same run again resumes it: the core runner skips every
cell already answered for the same request, and the plan above the Start
button says how many that is before anything is sent.

"Batch (half price)" submits the calls to the providers' batch APIs instead and returns
at once; the Batch jobs list shows the jobs still waiting, and Collect (in a child process
too) stores the answers of every job that has finished.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from labeler.errors import LabelerError
from labeler.prompts import ALL_CONDITIONS, CONDITIONS
from labeler.providers.base import STATUSES
from labeler.runs.batch import BatchRunSummary, CollectSummary
from labeler.runs.runner import DEFAULT_CONCURRENCY, RunProgress, RunSummary
from labeler.status import ResponseStatus
from labeler.store import NewResponse
from labeler.store.summaries import item_status_counts, item_statuses
from ui import workers
from ui.errors import show_error
from ui.review.style import tone
from ui.run import child
from ui.run.batch_panel import BatchPanel, collected_text, submitted_text
from ui.run.child import RunRequest
from ui.run.models_file import ModelChoice, load_choices
from ui.run.worker import Estimate, RunProcess, estimate
from ui.session import Session
from ui.settings import app_settings

ITEM_SCOPES = {
    "active": "All items except excluded",
    "ready": "Ready items only",
    "draft": "Draft items only",
}


def _in_scope(status: str, scope: str) -> bool:
    """Whether an item of ``status`` is in the chosen :data:`ITEM_SCOPES` entry."""
    return status != "excluded" if scope == "active" else status == scope


STATUS_TONES = {ResponseStatus.OK: "matched", ResponseStatus.PARSE_ERROR: "extra"}
MAX_LOG = 200


class RunView(QWidget):
    """The Run screen."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.choices: list[ModelChoice] = []
        self.run_process: RunProcess | None = None
        self.estimate_worker: workers.Worker | None = None
        self._estimate_due = False  # a plan asked for while hidden, made when the view shows
        self._started = 0.0
        self.last_summary: RunSummary | BatchRunSummary | CollectSummary | None = None

        # models
        self.models_path = QLineEdit()
        self.models_path.setPlaceholderText(
            "models.toml (the offline baseline is always available)"
        )
        self.models_path.setReadOnly(True)
        choose = QPushButton("Choose…")
        self.models = QTreeWidget()
        self.models.setHeaderLabels(["Model", "Provider", "Price in / out per Mtok", "API key"])
        self.models.setRootIsDecorated(False)
        self.models.setAlternatingRowColors(True)
        for column in (0, 1, 2):
            self.models.header().setSectionResizeMode(
                column, QHeaderView.ResizeMode.ResizeToContents
            )
        self.models.header().setStretchLastSection(True)
        # conditions, items, options
        self.conditions = {c: QCheckBox(c) for c in ALL_CONDITIONS}
        for condition, box in self.conditions.items():
            box.setChecked(condition in CONDITIONS)  # the card's four; slots when asked for
            if condition not in CONDITIONS:
                box.setToolTip(
                    "Numbered-slot question, outside the card's four: the model names what is "
                    "at each number (slot accuracy; decision 0022)"
                )
        self.scope = QComboBox()
        for key, label in ITEM_SCOPES.items():
            self.scope.addItem(label, key)
        self.item_count = QLabel()
        self.concurrency = QSpinBox()
        self.concurrency.setRange(1, 64)
        self.concurrency.setValue(DEFAULT_CONCURRENCY)
        self.concurrency.setToolTip("Calls in flight at once, per provider")
        self.retry_failed = QCheckBox("Re-send failed calls (API error, truncated, empty)")
        self.batch_mode = QCheckBox("Batch (half price)")
        self.batch_mode.setToolTip(
            "Submit the calls to each provider's batch API at its batch price (batch_discount "
            "in models.toml, half by default) and return at once; answers arrive within 24 h "
            "and Collect stores them. Models without a batch API (the baseline) run directly."
        )
        # batch jobs still waiting for their answers
        self.batch_panel = BatchPanel()
        self.batch_jobs = self.batch_panel.jobs
        self.collect_button = self.batch_panel.collect_button
        # plan and progress
        self.plan = QLabel("Choose models, conditions and items.")
        self.plan.setWordWrap(True)
        self.plan.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        self.plan.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.outcome = QLabel("No run yet in this session.")
        self.outcome.setWordWrap(True)
        self.start_button = QPushButton("Start run")
        self.start_button.setDefault(True)
        self.start_button.setEnabled(False)  # until an estimate says there is something to send
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.counts = {s: QLabel() for s in STATUSES}
        self.spent = QLabel()
        self.log = QListWidget()
        self.log.setUniformItemSizes(True)
        mono = self.log.font()
        mono.setFamily("monospace")
        self.log.setFont(mono)

        path_row = QHBoxLayout()
        path_row.addWidget(self.models_path, 1)
        path_row.addWidget(choose)
        models_box = QGroupBox("Models")
        models_layout = QVBoxLayout(models_box)
        models_layout.addLayout(path_row)
        models_layout.addWidget(self.models)
        cond_row = QHBoxLayout()
        for box in self.conditions.values():
            cond_row.addWidget(box)
        cond_row.addStretch(1)
        scope_row = QHBoxLayout()
        scope_row.addWidget(self.scope)
        scope_row.addWidget(self.item_count, 1)
        options = QFormLayout()
        options.addRow("Conditions", cond_row)
        options.addRow("Items", scope_row)
        options.addRow("Concurrency", concurrency_row := QHBoxLayout())
        concurrency_row.addWidget(self.concurrency)
        concurrency_row.addWidget(
            QLabel("calls at once per model (unless models.toml sets its own)"), 1
        )
        options.addRow("", self.retry_failed)
        options.addRow("", self.batch_mode)
        what_box = QGroupBox("What to send")
        what_box.setLayout(options)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        plan_box = QGroupBox("Plan")
        plan_layout = QVBoxLayout(plan_box)
        plan_layout.addWidget(self.plan)
        plan_layout.addLayout(buttons)
        left = QVBoxLayout()
        left.addWidget(models_box, 1)
        left.addWidget(what_box)
        left.addWidget(plan_box)

        counts = QGridLayout()
        for n, status in enumerate(STATUSES):
            name = QLabel(status.replace("_", " "))
            name.setStyleSheet(f"color: {self._status_color(status)}")
            counts.addWidget(name, 0, n)
            counts.addWidget(self.counts[status], 1, n)
        run_box = QGroupBox("Progress")
        run_layout = QVBoxLayout(run_box)
        run_layout.addWidget(self.outcome)
        run_layout.addWidget(self.progress)
        run_layout.addLayout(counts)
        run_layout.addWidget(self.spent)
        run_layout.addWidget(QLabel("Latest answers"))
        run_layout.addWidget(self.log, 1)
        right = QVBoxLayout()
        right.addWidget(run_box, 1)
        right.addWidget(self.batch_panel)

        layout = QHBoxLayout(self)
        layout.addLayout(left, 1)
        layout.addLayout(right, 1)

        self._estimate_timer = QTimer(self)
        self._estimate_timer.setSingleShot(True)
        self._estimate_timer.setInterval(250)
        self._estimate_timer.timeout.connect(self.refresh_estimate)
        choose.clicked.connect(lambda: self.choose_models_file())
        self.models.itemChanged.connect(lambda *_: self._changed())
        for box in self.conditions.values():
            box.toggled.connect(lambda *_: self._changed())
        self.scope.currentIndexChanged.connect(lambda *_: self._changed())
        self.retry_failed.toggled.connect(lambda *_: self._changed())
        self.batch_mode.toggled.connect(lambda *_: self._changed())
        self.start_button.clicked.connect(self.start)
        self.collect_button.clicked.connect(self.collect)
        self.cancel_button.clicked.connect(self.cancel)
        session.project_opened.connect(self._project_opened)
        session.project_closed.connect(self._estimate_timer.stop)
        session.items_changed.connect(self._changed)
        session.responses_changed.connect(self._changed)
        self._reset_counts()
        self.set_models_file(app_settings().value("run/models_file", "") or None)
        if session.project is not None:
            self._project_opened()

    # -- choices ------------------------------------------------------------

    def _status_color(self, status: str) -> str:
        name = STATUS_TONES.get(status, "failure")
        return tone(self.palette(), name).name()

    def choose_models_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose models file", "", "TOML (*.toml)")
        if path:
            self.set_models_file(path)

    def set_models_file(self, path: str | Path | None) -> None:
        """List the models of ``path`` (plus the offline baseline) with their key status."""
        try:
            choices = load_choices(path)
        except LabelerError as exc:
            show_error(exc, self, "Models file")
            choices, path = load_choices(None), None
        self.choices = choices
        self.models_path.setText(str(path or ""))
        if path:
            app_settings().setValue("run/models_file", str(path))
        self.models.blockSignals(True)
        self.models.clear()
        for choice in choices:
            c = choice.config
            price = (
                f"${c.price_input_per_mtok:g} / ${c.price_output_per_mtok:g}"
                if c.price_input_per_mtok is not None and c.price_output_per_mtok is not None
                else ("free" if c.spec.free else "no price")
            )
            key = "set" if choice.runnable and c.api_key_env else "not needed"
            if not choice.runnable:
                key = f"{choice.missing_key} not set"
            row = QTreeWidgetItem([c.name, c.provider, price, key])
            row.setData(0, Qt.ItemDataRole.UserRole, c.name)
            # The offline baseline is free and instant: ticked, so a first run just works.
            ticked = c.provider == "baseline"
            row.setCheckState(0, Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
            if not choice.runnable:
                row.setFlags(row.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                row.setToolTip(
                    3, f"Export {choice.missing_key} with the API key, then reopen the file"
                )
                row.setForeground(3, tone(self.palette(), "failure"))
            self.models.addTopLevelItem(row)
        self.models.blockSignals(False)
        self._changed()

    def select_models(self, names: list[str]) -> None:
        """Tick exactly the runnable models in ``names``."""
        for n in range(self.models.topLevelItemCount()):
            row = self.models.topLevelItem(n)
            on = row.data(0, Qt.ItemDataRole.UserRole) in names and bool(
                row.flags() & Qt.ItemFlag.ItemIsEnabled
            )
            row.setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def request(self) -> RunRequest | None:
        """The run the form describes, or None when it is incomplete."""
        project = self.session.project
        picked = {
            self.models.topLevelItem(n).data(0, Qt.ItemDataRole.UserRole)
            for n in range(self.models.topLevelItemCount())
            if self.models.topLevelItem(n).checkState(0) == Qt.CheckState.Checked
        }
        models = tuple(c.config for c in self.choices if c.config.name in picked and c.runnable)
        conditions = tuple(c for c, box in self.conditions.items() if box.isChecked())
        items = self._item_ids()
        if project is None or not models or not conditions or not items:
            return None
        return RunRequest(
            project.folder,
            models,
            conditions,
            tuple(items),
            self.concurrency.value(),
            self.retry_failed.isChecked(),
            self.batch_mode.isChecked(),
        )

    def _item_ids(self) -> list[str]:
        project = self.session.project
        if project is None:
            return []
        scope = self.scope.currentData()
        items = item_statuses(project)  # ids and statuses only: this runs on the GUI thread
        return [i for i, status in items if _in_scope(status, scope)]

    def _item_count(self) -> int:
        """How many items :meth:`_item_ids` would give, counted by the store."""
        project = self.session.project
        if project is None:
            return 0
        scope = self.scope.currentData()
        counts = item_status_counts(project)
        return sum(n for status, n in counts.items() if _in_scope(status, scope))

    def _project_opened(self) -> None:
        project = self.session.require_project()
        local = project.folder / "models.toml"
        if not self.models_path.text() and local.is_file():
            self.set_models_file(local)
        # the item count reads every item's status: a turn of its own, not the opening one's
        workers.next_turn(self._changed, self)
        self._estimate_timer.stop()
        self.refresh_estimate()  # at once: the plan is the first thing the curator reads
        self.refresh_batches()

    def _changed(self, *_: object) -> None:
        count = self._item_count()
        self.item_count.setText(f"{count} item{'s' if count != 1 else ''}")
        if self.run_process is None:
            self._estimate_timer.start()

    # -- estimate -----------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._estimate_due:
            self.refresh_estimate()

    def refresh_estimate(self) -> None:
        """Plan the chosen run on a worker thread and show calls and cost.

        Only while the view is on screen: planning reads every answer of the project (about
        0.5 s of a worker at 100k answers), and a hidden Run view would pay it on every open,
        edit and run end, beside the reads of the view the curator is looking at.
        """
        if not self.isVisible():
            self._estimate_due = True
            return
        self._estimate_due = False
        request = self.request()
        if request is None:
            self.plan.setText("Choose at least one model, one condition and one item.")
            self.start_button.setEnabled(False)
            return
        self.plan.setText("Estimating…")
        worker = workers.Worker(estimate, request)
        # Bound methods, not lambdas: Qt drops the connection if this view is deleted first.
        worker.signals.result.connect(self._estimated)
        worker.signals.error.connect(self._estimate_failed)
        self.estimate_worker = workers.start(worker)

    def _latest_estimate(self) -> bool:
        """Whether the signal being handled comes from the latest estimate (and no run started)."""
        worker = self.estimate_worker
        current = worker is not None and self.sender() is worker.signals
        return current and self.run_process is None

    def _estimated(self, result: Estimate) -> None:
        if not self._latest_estimate():
            return
        parts = [f"<b>{result.calls:,} calls</b> to send"]
        if result.skipped:
            parts.append(f"{result.skipped:,} already answered (skipped: a re-run resumes)")
        if result.unrunnable:
            parts.append(f"{result.unrunnable:,} cannot run (no question image)")
        if result.waiting:
            parts.append(f"{result.waiting:,} waiting in batch jobs (collect them)")
        batch = self.batch_mode.isChecked()
        shown = result.batch_cost_usd if batch else result.cost_usd
        cost = f"estimated <b>${shown:,.2f}</b>"
        if result.unpriced:
            cost += f" + unpriced: {', '.join(result.unpriced)}"
        saving = result.cost_usd - result.batch_cost_usd
        if saving > 0:
            cost += (
                f" · batch mode saves ${saving:,.2f}"
                if batch
                else f" · in batch mode ${result.batch_cost_usd:,.2f}"
            )
        self.plan.setText(" · ".join(parts) + "<br>" + cost)
        self.start_button.setText("Submit batch" if batch else "Start run")
        self.start_button.setEnabled(result.calls > 0)

    def _estimate_failed(self, exc: BaseException) -> None:
        if not self._latest_estimate():
            return
        self.plan.setText(f"Cannot plan this run: {exc}")
        self.start_button.setEnabled(False)

    # -- running ------------------------------------------------------------

    def start(self) -> None:
        """Start the chosen run on a worker thread."""
        request = self.request()
        if request is None or self.run_process is not None:
            return
        self.last_summary = None
        self._reset_counts()
        self.log.clear()
        self.progress.setRange(0, 0)  # busy until the first answer says how many
        self.outcome.setText("Submitting the batch jobs…" if request.batch else "Starting the run…")
        self._started = time.monotonic()
        self._launch(RunProcess(request, self))
        self.session.status_message.emit(f"Run started: {len(request.models)} model(s)")

    def collect(self) -> None:
        """Store the answers of every finished batch job, in a child process."""
        project = self.session.project
        if project is None or self.run_process is not None:
            return
        self.outcome.setText("Asking the providers about the waiting batch jobs…")
        self.progress.setRange(0, 0)
        self._launch(RunProcess(project.folder, self, target=child.collect))
        self.cancel_button.setEnabled(False)  # a collection is a few requests: not cancelled

    def _launch(self, process: RunProcess) -> None:
        process.progress.connect(self._progress)
        process.finished.connect(self._finished)
        process.failed.connect(self._failed)
        process.ended.connect(self._ended)
        self.run_process = process
        process.start()
        self._set_running(True)

    def refresh_batches(self) -> None:
        """List the project's batch jobs still waiting for answers."""
        self.batch_panel.refresh(self.session.project, running=self.run_process is not None)

    def cancel(self) -> None:
        """Stop after the calls in flight; everything finished is kept."""
        if self.run_process is not None:
            self.run_process.cancel()
        self.cancel_button.setEnabled(False)
        self.outcome.setText("Cancelling: waiting for the calls in flight…")

    def _progress(self, progress: RunProgress, stored: list[NewResponse]) -> None:
        self.progress.setFormat("%v of %m calls")
        self.progress.setRange(0, progress.total)
        self.progress.setValue(progress.done)
        for status, label in self.counts.items():
            label.setText(str(progress.counts.get(status, 0)))
        elapsed = time.monotonic() - self._started
        self.spent.setText(f"Spent ${progress.cost_usd:,.4f} · {elapsed:,.0f} s elapsed")
        for r in stored[-MAX_LOG:]:
            self.log.insertItem(0, f"{r.status:<11} {r.model} · {r.condition} · {r.item_id}")
        while self.log.count() > MAX_LOG:
            self.log.takeItem(self.log.count() - 1)

    def _finished(self, summary: RunSummary | BatchRunSummary | CollectSummary) -> None:
        self.last_summary = summary
        if isinstance(summary, BatchRunSummary):
            self._submitted(summary)
            return
        if isinstance(summary, CollectSummary):
            self._collected(summary)
            return
        verb = "Cancelled" if summary.cancelled else "Finished"
        self.outcome.setText(
            f"<b>{verb}</b>: {summary.sent:,} of {summary.planned:,} calls sent, "
            f"{summary.skipped:,} skipped as already answered, ${summary.cost_usd:,.4f} spent."
        )
        if summary.planned and not summary.cancelled:
            self.progress.setRange(0, summary.planned)
            self.progress.setValue(summary.sent)
        self.session.status_message.emit(f"Run {verb.lower()}: {summary.sent} answers stored")

    def _submitted(self, summary: BatchRunSummary) -> None:
        self.outcome.setText(submitted_text(summary))
        self.session.status_message.emit(f"Batch submitted: {summary.submitted_calls} calls")

    def _collected(self, summary: CollectSummary) -> None:
        self.outcome.setText(collected_text(summary))
        self.session.status_message.emit(f"Collected {summary.stored} batch answers")

    def _failed(self, message: str, user_error: bool) -> None:
        first_line = message.splitlines()[0]
        self.outcome.setText(f"The run stopped: {first_line}. Answers already stored are kept.")
        show_error(LabelerError(message) if user_error else RuntimeError(message), self, "Run")

    def _ended(self) -> None:
        self.run_process = None
        self._set_running(False)
        if self.progress.maximum() == 0:
            self.progress.setRange(0, 1)
        self.refresh_batches()
        self.session.responses_changed.emit()
        self._changed()  # a new plan: what was submitted or collected is no longer to send

    def _set_running(self, running: bool) -> None:
        self.start_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for widget in (
            self.models,
            self.scope,
            self.concurrency,
            self.retry_failed,
            self.batch_mode,
        ):
            widget.setEnabled(not running)
        self.batch_panel.set_running(running)
        for box in self.conditions.values():
            box.setEnabled(not running)

    def _reset_counts(self) -> None:
        for label in self.counts.values():
            label.setText("0")
        self.spent.setText("")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("Not running")
