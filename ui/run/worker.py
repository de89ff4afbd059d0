"""Model runs and run plans off the GUI thread.

The core runner (:func:`labeler.runs.runner.run`) is a blocking function with a
progress callback and a ``threading.Event`` for cancel, so a run is one
:class:`ui.workers.Worker` job. The job opens its own :class:`Project` (a
SQLite connection belongs to one thread); progress crosses to the GUI thread as
a queued Qt signal, throttled so a fast model (the offline baseline answers in
microseconds) cannot flood the event queue.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from labeler.providers.config import ModelConfig
from labeler.runs.runner import RunProgress, RunSummary, plan_run, run
from labeler.store import NewResponse, Project

#: Minimum seconds between progress signals (the last one is always sent).
PROGRESS_INTERVAL = 0.05


@dataclass(frozen=True)
class RunRequest:
    """What the curator chose in the Run view."""

    folder: Path
    models: tuple[ModelConfig, ...]
    conditions: tuple[str, ...]
    item_ids: tuple[str, ...]
    concurrency: int
    retry_failed: bool


@dataclass(frozen=True)
class Estimate:
    """A run's plan, summarised for the view."""

    calls: int
    skipped: int
    unrunnable: int
    cost_usd: float
    unpriced: tuple[str, ...]


def estimate(request: RunRequest) -> Estimate:
    """Plan the run (as the runner would) and price it; runs on a worker thread."""
    with Project.open(request.folder) as project:
        plan = plan_run(
            project, request.models, request.conditions, request.item_ids, request.retry_failed
        )
    cost, unpriced = plan.estimated_cost()
    return Estimate(len(plan.calls), plan.skipped, len(plan.unrunnable), cost, tuple(unpriced))


class ProgressRelay(QObject):
    """Carries progress from the run thread to the GUI thread, in batches.

    ``progress`` delivers ``(RunProgress, [NewResponse, …])``: the latest
    counts and every response stored since the previous signal.
    """

    progress = Signal(object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._last = 0.0
        self._batch: list[NewResponse] = []

    def report(self, progress: RunProgress) -> None:
        """Called on the run thread after every stored response."""
        if progress.last is not None:
            self._batch.append(progress.last)
        now = time.monotonic()
        if progress.done >= progress.total or now - self._last >= PROGRESS_INTERVAL:
            self._last = now
            batch, self._batch = self._batch, []
            self.progress.emit(progress, batch)


def execute(request: RunRequest, relay: ProgressRelay, cancel: threading.Event) -> RunSummary:
    """Run the request to the end (or until ``cancel``); runs on a worker thread."""
    with Project.open(request.folder) as project:
        return run(
            project,
            list(request.models),
            list(request.conditions),
            list(request.item_ids),
            concurrency=request.concurrency,
            retry_failed=request.retry_failed,
            on_progress=relay.report,
            cancel=cancel,
        )
