"""Send items × models × conditions to the models and store every answer as it arrives.

Planning and sending are separate so ``--dry-run`` and the cost estimate see
exactly the calls a real run would make. Each finished call is one transaction
in the project, so killing the process at any moment loses only calls that
were still in flight, and a re-run skips every cell already answered for the
same request hash (prompt + image bytes + model + decode settings).

Calls run on one asyncio loop with the SDKs' async clients: a pool of workers
per model bounds its concurrency and paces its requests, and the runner alone
retries (SDK retries are off) with exponential back-off that honours
``Retry-After``. ``run`` is a plain blocking function with progress callbacks and
a ``threading.Event`` for cancellation (both in :class:`RunOptions`), so the GUI
can drive it from a child process (``ui/run/child.py``) that opens its own
:class:`~labeler.store.Project`.

One module a job: :mod:`~labeler.runs.plan` (what to send), :mod:`~labeler.runs.send` (the
asyncio side), :mod:`~labeler.runs.answers` (a finished call as its stored row, and storing
it); this module runs a plan under the project's run guard and re-exports their names, so
callers import everything a run needs from here.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

from labeler.errors import LabelerError
from labeler.runs import spool
from labeler.runs.answers import _storable as _storable  # tests/attack import it from here
from labeler.runs.answers import answer_row, store_answer, to_new_response, unparsed_response
from labeler.runs.claims import run_guard
from labeler.runs.plan import (
    FINAL,
    RETRYABLE,
    PlannedCall,
    RunPlan,
    RunRequest,
    baseline_corpus,
    plan_run,
    request_hash,
    unanswered,
)
from labeler.runs.send import (
    DEFAULT_CONCURRENCY,
    INLINE_PARSE_CHARS,
    ProgressCallback,
    RetryPolicy,
    RunOptions,
    RunProgress,
    Sender,
    send_with_retries,
)
from labeler.store import Project

__all__ = [
    "DEFAULT_CONCURRENCY",
    "FINAL",
    "INLINE_PARSE_CHARS",
    "RETRYABLE",
    "PlannedCall",
    "ProgressCallback",
    "RetryPolicy",
    "RunOptions",
    "RunPlan",
    "RunProgress",
    "RunRequest",
    "RunSummary",
    "answer_row",
    "baseline_corpus",
    "plan_run",
    "request_hash",
    "run",
    "send_with_retries",
    "store_answer",
    "to_new_response",
    "unparsed_response",
]


@dataclass(frozen=True)
class RunSummary:
    """How a run ended."""

    run_id: int | None
    planned: int
    sent: int
    skipped: int
    counts: Mapping[str, int]
    cost_usd: float
    cancelled: bool
    unrunnable: list[str] = field(default_factory=list)
    capped: bool = False  # stopped at ``max_cost_usd``; ``planned - sent`` calls not sent


def run(
    project: Project,
    request: RunRequest,
    options: RunOptions | None = None,
    plan: RunPlan | None = None,
) -> RunSummary:
    """Plan ``request`` (unless given its ``plan``) and send; blocks until done or cancelled.

    A model's answer never ends a run (see :func:`~labeler.runs.answers.store_answer`); if
    the project itself refuses a write, no new call is sent, the answers in flight are
    stored, then that error is raised. A second run on the same SQLite project while this
    one holds its lock raises :class:`~labeler.runs.lock.RunInProgress` before anything is
    sent; runs on one PostgreSQL project share its calls instead (:mod:`labeler.runs.claims`).
    """
    options = options or RunOptions()
    if options.concurrency < 1:
        raise LabelerError("concurrency must be at least 1")
    if options.max_cost_usd is not None and options.max_cost_usd < 0:
        raise LabelerError("the spending cap must be zero or more dollars")
    with run_guard(project):
        # a plan made before the lock was ours may hold cells another run answered since
        plan = plan_run(project, request) if plan is None else unanswered(project, request, plan)
        return _run_locked(project, request, options, plan)


def _run_locked(
    project: Project, request: RunRequest, options: RunOptions, plan: RunPlan
) -> RunSummary:
    """:func:`run` once the project's run lock is held."""
    if not plan.calls:
        return RunSummary(None, 0, 0, plan.skipped, {}, 0.0, False, plan.unrunnable)
    if options.max_cost_usd is not None:
        unpriced = plan.estimated_cost()[1]
        if unpriced:
            raise LabelerError(
                f"a spending cap needs prices for every model; {', '.join(unpriced)} has none:"
                " add price_input_per_mtok and price_output_per_mtok to models.toml"
            )
    spool.reserve(project)
    try:
        run_id = project.responses.start_run(
            {
                "models": [m.name for m in request.models],
                "conditions": list(request.conditions),
                "items": None if request.item_ids is None else list(request.item_ids),
                "retry_failed": request.retry_failed,
                "calls": len(plan.calls),
            }
        )
    except sqlite3.Error as exc:  # nothing was sent yet: say why and stop
        raise spool.StoreWriteFailed(spool.store_problem(project, exc)) from exc
    sender = Sender(project, plan, run_id, options)
    try:
        cancelled = asyncio.run(sender.send_all())
    finally:
        try:
            project.responses.finish_run(run_id)
        except sqlite3.Error as exc:  # the same fault that stopped the run, when it did
            if sender.failure is None:
                raise spool.StoreWriteFailed(spool.store_problem(project, exc)) from exc
    if sender.failure is not None:
        raise sender.failure
    return RunSummary(
        run_id,
        len(plan.calls),
        sender.done,
        plan.skipped,
        dict(sender.counts),
        sender.cost,
        cancelled,
        plan.unrunnable,
        sender.cap is not None and sender.cap.reached,
    )
