"""The run process: the core runner in its own interpreter, talking through a queue.

Why a process and not a thread: building the provider SDK clients loads TLS
certificates while holding the GIL (100–300 ms for ``openai.AsyncOpenAI`` on
this machine), and a thread doing that freezes the window just as long. A
spawned process has its own GIL, so the GUI stays responsive whatever the SDKs
do. This module imports no Qt: the child only needs the core.

Messages put on the queue (all picklable):

- ``("progress", RunProgress, [NewResponse, …])`` — counts so far and every
  response stored since the previous message (sent at most every
  :data:`PROGRESS_INTERVAL` seconds, and always for the last one);
- ``("done", RunSummary | BatchRunSummary | CollectSummary)`` — the run ended (finished
  or cancelled), the batch jobs were submitted, or the waiting jobs were collected;
- ``("error", message, is_user_error)`` — the run stopped on an exception.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.providers.config import ModelConfig
from labeler.runs.batch import collect_batches, run_batch
from labeler.runs.runner import RunOptions, RunProgress, run
from labeler.runs.runner import RunRequest as CoreRunRequest
from labeler.store import NewResponse, Project

#: Minimum seconds between progress messages (the last one is always sent).
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
    batch: bool = False  # submit to the providers' batch APIs (batch price) and return

    def runs(self) -> CoreRunRequest:
        """The core's record of what to run (the folder and the concurrency stay here)."""
        return CoreRunRequest(self.models, self.conditions, self.item_ids, self.retry_failed)


class Batcher:
    """Collects stored responses and sends them with the latest counts, at most every 50 ms."""

    def __init__(self, send) -> None:
        self._send = send
        self._last = 0.0
        self._batch: list[NewResponse] = []

    def report(self, progress: RunProgress) -> None:
        """The runner's ``on_progress``: called after every stored response."""
        if progress.last is not None:
            self._batch.append(progress.last)
        now = time.monotonic()
        if progress.done >= progress.total or now - self._last >= PROGRESS_INTERVAL:
            self._last = now
            batch, self._batch = self._batch, []
            self._send(("progress", progress, batch))


def main(request: RunRequest, queue: Any, cancel: Any) -> None:
    """Run ``request``; ``queue`` and ``cancel`` are a multiprocessing Queue and Event."""
    stop = threading.Event()  # the runner's own cancel flag, raised when the GUI asks
    threading.Thread(target=lambda: (cancel.wait(), stop.set()), daemon=True).start()

    def work() -> object:
        with Project.open(request.folder) as project:
            options = RunOptions(
                concurrency=request.concurrency,
                on_progress=Batcher(queue.put).report,
                cancel=stop,
            )
            if request.batch:
                return run_batch(project, request.runs(), options)
            return run(project, request.runs(), options)

    _report(queue, work)


def collect(folder: Path, queue: Any, _cancel: Any) -> None:
    """Ask the project's waiting batch jobs where they are; store every finished one."""

    def work() -> object:
        with Project.open(folder) as project:
            return collect_batches(project)

    _report(queue, work)


def _report(queue: Any, work: Callable[[], object]) -> None:
    """Put ``work``'s result on ``queue`` as ``done``, or what stopped it as ``error``."""
    try:
        queue.put(("done", work()))
    except LabelerError as exc:
        queue.put(("error", str(exc), True))
    except BaseException as exc:  # reported to the GUI, which shows it as a dialog
        queue.put(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}", False))
