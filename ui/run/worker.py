"""Model runs and run plans, kept off the GUI thread.

A run is a spawned process (:mod:`ui.run.child`, see there why not a thread);
:class:`RunProcess` starts it, polls its queue from a GUI-thread timer (a
``get_nowait`` costs microseconds) and turns messages into Qt signals. The
estimate is light (planning reads images, no SDK clients), so it is an
ordinary :mod:`ui.workers` job with its own project connection.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from labeler.runs.batch import cell
from labeler.runs.runner import plan_run
from labeler.store import Project
from ui.run import child
from ui.run.child import RunRequest

POLL_MS = 40
#: Never fork a process that runs Qt: a spawned child starts clean.
SPAWN = multiprocessing.get_context("spawn")


@dataclass(frozen=True)
class Estimate:
    """A run's plan, summarised for the view."""

    calls: int
    skipped: int
    unrunnable: int
    cost_usd: float
    unpriced: tuple[str, ...]
    batch_cost_usd: float  # the same calls at the batch price (where a batch API exists)
    waiting: int  # calls submitted in batch jobs whose answers are not stored yet


def estimate(request: RunRequest) -> Estimate:
    """Plan the run (as the runner would) and price it; runs on a worker thread."""
    with Project.open(request.folder) as project:
        plan = plan_run(project, request.runs())
        waiting = project.batches.waiting_cells()
    calls = [c for c in plan.calls if cell(c) not in waiting]
    plan = replace(plan, calls=calls)
    cost, unpriced = plan.estimated_cost()
    batch_cost = plan.estimated_cost(batch=True)[0]
    return Estimate(
        len(calls),
        plan.skipped,
        len(plan.unrunnable),
        cost,
        tuple(unpriced),
        batch_cost,
        len(waiting),
    )


class RunProcess(QObject):
    """One run (or one collection of batch jobs: ``target=child.collect`` with the project
    folder) in a child process, reported through signals on the GUI thread."""

    progress = Signal(object, object)  # RunProgress, [NewResponse, …] stored since last time
    finished = Signal(object)  # RunSummary, BatchRunSummary or CollectSummary
    failed = Signal(str, bool)  # message, is a user error (LabelerError)
    ended = Signal()  # always last, whatever happened

    def __init__(
        self,
        request: Any,
        parent: QObject | None = None,
        target: Callable[[Any, Any, Any], None] = child.main,
    ) -> None:
        super().__init__(parent)
        self._queue = SPAWN.Queue()
        self._cancel = SPAWN.Event()
        self._process = SPAWN.Process(
            target=target, args=(request, self._queue, self._cancel), daemon=True
        )
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._reported = False

    def start(self) -> None:
        self._process.start()
        self._timer.start()

    def cancel(self) -> None:
        """Ask the run to stop after the calls in flight (finished answers are stored)."""
        self._cancel.set()

    def _poll(self) -> None:
        if self._reported:  # only reaping the finished child, without blocking
            if not self._process.is_alive():
                self._process.join(timeout=0)
                self._timer.stop()
            return
        while True:
            try:
                message = self._queue.get_nowait()
            except queue_module.Empty:
                break
            kind = message[0]
            if kind == "progress":
                self.progress.emit(message[1], message[2])
                continue
            if kind == "done":
                self.finished.emit(message[1])
            else:
                self.failed.emit(message[1], message[2])
            self._report_end()
            return
        if not self._process.is_alive() and self._queue.empty():
            code = self._process.exitcode
            self.failed.emit(
                f"the run process exited unexpectedly (exit code {code}); "
                "every answer stored before that is kept, and starting again resumes",
                False,
            )
            self._report_end()

    def _report_end(self) -> None:
        self._reported = True
        self.ended.emit()
