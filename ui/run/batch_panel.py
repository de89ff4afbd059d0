"""Run's Batch jobs box: the project's batch jobs still waiting for answers, and Collect.

A batch run returns as soon as its jobs are created (``labeler.runs.batch``); their answers
arrive within a day. This box lists the jobs still waiting (a small store read) and offers
Collect, which the Run view runs in a child process like a run. The lines Run shows after a
submission or a collection are written here too, next to the jobs they describe.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from labeler.runs.batch import BatchRunSummary, CollectSummary
from labeler.store import Project


class BatchPanel(QGroupBox):
    """The waiting batch jobs (job, model, state, answered, submitted) and the Collect button.

    The Run view connects ``collect_button`` and says when a run or a collection is in
    flight (:meth:`refresh`, :meth:`set_running`): Collect is offered only when there are
    jobs and nothing else is running.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Batch jobs", parent)
        self.jobs = QTreeWidget()
        self.jobs.setHeaderLabels(["Job", "Model", "State", "Answered", "Submitted"])
        self.jobs.setRootIsDecorated(False)
        self.jobs.setAlternatingRowColors(True)
        self.jobs.header().setStretchLastSection(True)
        self.jobs.setMaximumHeight(self.fontMetrics().lineSpacing() * 8)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.collect_button = QPushButton("Collect")
        self.collect_button.setToolTip(
            "Ask the providers where each waiting job is and store every finished job's answers"
        )
        layout = QVBoxLayout(self)
        layout.addWidget(self.jobs)
        collect_row = QHBoxLayout()
        collect_row.addWidget(self.note, 1)
        collect_row.addWidget(self.collect_button)
        layout.addLayout(collect_row)

    def refresh(self, project: Project | None, running: bool) -> None:
        """List ``project``'s batch jobs still waiting for answers (a small store read)."""
        jobs = project.batches.jobs(live_only=True) if project is not None else []
        self.jobs.clear()
        for job in jobs:
            answered = f"{job.answered or 0:,} of {job.requests:,}"
            row = QTreeWidgetItem(
                [job.provider_id, job.model, job.state, answered, job.submitted_at]
            )
            self.jobs.addTopLevelItem(row)
        for column in range(4):
            self.jobs.resizeColumnToContents(column)
        self.note.setText(
            f"{len(jobs)} job(s) waiting for answers" if jobs else "No batch jobs waiting."
        )
        self.collect_button.setEnabled(bool(jobs) and not running)

    def set_running(self, running: bool) -> None:
        """Offer Collect only when jobs are listed and no run or collection is in flight."""
        self.collect_button.setEnabled(not running and self.jobs.topLevelItemCount() > 0)


def submitted_text(summary: BatchRunSummary) -> str:
    """What a batch submission did, for Run's outcome line (rich text)."""
    text = (
        f"<b>Submitted</b> {summary.submitted_calls:,} calls in {len(summary.jobs)} batch "
        f"job(s), estimated ${summary.estimated_usd:,.4f} at the batch price."
    )
    if summary.waiting:
        text += f" {summary.waiting:,} calls were already waiting in a job (not sent again)."
    if summary.collected.stored:
        text += f" Collected {summary.collected.stored:,} answers of finished jobs."
    if summary.direct is not None:
        text += f" {summary.direct.sent:,} calls without a batch API were sent directly."
    return text


def collected_text(summary: CollectSummary) -> str:
    """What a collection stored, for Run's outcome line (rich text)."""
    counts = ", ".join(f"{k} {v:,}" for k, v in summary.counts.items() if v)
    text = (
        f"<b>Collected</b> {summary.stored:,} answers from {summary.finished} finished "
        f"job(s){': ' + counts if counts else ''}, ${summary.cost_usd:,.4f}."
    )
    if summary.pending:
        text += f" {len(summary.pending)} job(s) still running: collect again later."
    return text
