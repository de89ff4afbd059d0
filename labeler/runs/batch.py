"""Batch mode: send a run's calls through each provider's batch API at its batch price.

``run_batch`` first collects every job that has finished since the last look, then
plans the run, leaves out every call already waiting in a job (paid for, not to be sent
again), refuses before anything is submitted any model whose batch endpoint would
reject it, and submits the rest — split into jobs within the provider's limits — and
returns at once. ``collect_batches`` (``labeler batches --collect``, or the next
``labeler run --batch``) asks each waiting job where it is and stores every answer of a
finished one through the same parse and store path as a streamed answer, so each call
gets exactly one status. A job that expired or was cancelled keeps the answers it has;
its other calls are stored as ``api_error`` ("not answered"), which ``--retry-failed``
sends again. Models without a batch API (the offline baseline) run directly.

Everything here holds the project's run lock, so a batch run, a collection and a
streaming run never overlap on one project.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from labeler.errors import ConfigError, LabelerError
from labeler.providers.base import API_ERROR, STATUSES, CallRequest, CallResult
from labeler.providers.config import ModelConfig, missing_keys
from labeler.providers.spec import BatchClient, BatchSupport
from labeler.runs.cost import estimate_call_cost
from labeler.runs.lock import run_lock
from labeler.runs.runner import (
    PlannedCall,
    RunOptions,
    RunPlan,
    RunRequest,
    RunSummary,
    _run_locked,
    answer_row,
    plan_run,
)
from labeler.store import NewResponse, Project
from labeler.store.batches import Batch, BatchCall

#: Called after every stored batch answer.
AnswerCallback = Callable[[NewResponse], None]
_OVERHEAD_BYTES = 1024  # JSON framing of one request beside its prompt and image


@dataclass(frozen=True)
class CollectSummary:
    """What one look at the waiting jobs found: answers stored, jobs still running."""

    finished: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    cost_usd: float = 0.0
    pending: list[Batch] = field(default_factory=list)

    @property
    def stored(self) -> int:
        """Answers stored by this look."""
        return sum(self.counts.values())


@dataclass(frozen=True)
class BatchRunSummary:
    """How ``labeler run --batch`` ended: collected, submitted, and run directly."""

    collected: CollectSummary
    submitted_calls: int
    jobs: list[int]
    waiting: int  # calls left out because a job already holds them
    skipped: int
    unrunnable: list[str]
    estimated_usd: float
    not_submitted: int = 0  # left out by the spending cap
    direct: RunSummary | None = None

    @property
    def capped(self) -> bool:
        """The spending cap kept some calls back."""
        return self.not_submitted > 0


def batch_refusals(models: Sequence[ModelConfig]) -> list[str]:
    """Why each model cannot go through its provider's batch API ("model: reason")."""
    problems = []
    for model in models:
        support = model.spec.batch
        reason = support.refuse(model) if support is not None else None
        if reason:
            problems.append(f"{model.name}: {reason}")
    return problems


def run_batch(
    project: Project, request: RunRequest, options: RunOptions | None = None
) -> BatchRunSummary:
    """Collect finished jobs, then submit the run's remaining calls as batch jobs.

    Raises :class:`ConfigError` before anything is submitted when a model's batch
    endpoint would refuse it; ``options.max_cost_usd`` bounds the estimated batch cost
    of what is submitted (what does not fit is left for a later run).
    """
    options = options or RunOptions()
    refused = batch_refusals(request.models)
    if refused:
        raise ConfigError("cannot run in batch mode, nothing was submitted: " + "; ".join(refused))
    with run_lock(project.folder):
        collected = _collect_locked(project, None)
        plan = plan_run(project, request)
        waiting = project.batches.waiting_cells()
        calls = [c for c in plan.calls if cell(c) not in waiting]
        batched = [replace(c, batch=True) for c in calls if c.model.spec.batch is not None]
        direct = [c for c in calls if c.model.spec.batch is None]
        batched, not_submitted = _within_cap(batched, options.max_cost_usd)
        estimate = RunPlan(batched, 0, []).estimated_cost(batch=True)[0]
        jobs = _submit(project, request, batched) if batched else []
        direct_summary = None
        if direct:
            direct_summary = _run_locked(project, request, options, RunPlan(direct, 0, []))
    return BatchRunSummary(
        collected=collected,
        submitted_calls=len(batched),
        jobs=jobs,
        waiting=len(plan.calls) - len(calls),
        skipped=plan.skipped,
        unrunnable=plan.unrunnable,
        estimated_usd=estimate,
        not_submitted=not_submitted,
        direct=direct_summary,
    )


def collect_batches(project: Project, on_answer: AnswerCallback | None = None) -> CollectSummary:
    """Ask every waiting job where it is; store all answers of the finished ones."""
    with run_lock(project.folder):
        return _collect_locked(project, on_answer)


def wait_for_batches(
    project: Project,
    poll_s: float = 60.0,
    on_look: Callable[[CollectSummary], None] | None = None,
    on_answer: AnswerCallback | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> CollectSummary:
    """Collect every ``poll_s`` seconds until no job is waiting; returns the totals.

    The run lock is held only while looking, so the project stays usable in between.
    """
    counts: Counter[str] = Counter()
    finished, cost = 0, 0.0
    while True:
        look = collect_batches(project, on_answer)
        counts.update(look.counts)
        finished, cost = finished + look.finished, cost + look.cost_usd
        if on_look is not None:
            on_look(look)
        if not look.pending:
            return CollectSummary(finished, dict(counts), cost, [])
        sleep(poll_s)


def cell(call: PlannedCall) -> tuple[str, str, str, str]:
    """The (item, model, condition, request hash) a planned call answers."""
    return (call.item_id, call.model.name, call.condition, call.request_hash)


def _within_cap(calls: list[PlannedCall], cap_usd: float | None) -> tuple[list[PlannedCall], int]:
    """The calls whose estimated batch cost fits under ``cap_usd``, in plan order."""
    if cap_usd is None:
        return calls, 0
    unpriced = sorted(
        {c.model.name for c in calls if estimate_call_cost(c.model, c.prompt, c.image) is None}
    )
    if unpriced:
        raise LabelerError(
            f"a spending cap needs prices for every model; {', '.join(unpriced)} has none:"
            " add price_input_per_mtok and price_output_per_mtok to models.toml"
        )
    kept, total = [], 0.0
    for call in calls:
        cost = estimate_call_cost(call.model, call.prompt, call.image, batch=True) or 0.0
        if total + cost > cap_usd:
            break
        kept.append(call)
        total += cost
    return kept, len(calls) - len(kept)


def _submit(project: Project, request: RunRequest, calls: list[PlannedCall]) -> list[int]:
    """Submit ``calls`` as jobs per model within its provider's limits; record each job
    (with its calls) as soon as the provider accepted it."""
    run_id = project.responses.start_run(
        {
            "models": [m.name for m in request.models],
            "conditions": list(request.conditions),
            "items": None if request.item_ids is None else list(request.item_ids),
            "retry_failed": request.retry_failed,
            "calls": len(calls),
            "batch": True,
        }
    )
    jobs: list[int] = []
    try:
        by_model: dict[str, list[PlannedCall]] = {}
        for call in calls:
            by_model.setdefault(call.model.name, []).append(call)
        for group in by_model.values():
            model = group[0].model
            support = _support(model)
            client = support.client(model)
            try:
                for chunk in _chunks(group, support):
                    requests = [
                        (f"r{i}", CallRequest(c.prompt, c.image, c.item_id, c.subject, c.condition))
                        for i, c in enumerate(chunk)
                    ]
                    provider_id = client.submit(requests)
                    jobs.append(_record(project, model, chunk, provider_id, run_id))
            finally:
                client.close()
    finally:
        project.responses.finish_run(run_id)
    return jobs


def _record(
    project: Project, model: ModelConfig, chunk: list[PlannedCall], provider_id: str, run_id: int
) -> int:
    return project.batches.add(
        provider=model.provider,
        provider_id=provider_id,
        model=model.name,
        model_json=dataclasses.asdict(model),
        settings=dict(chunk[0].settings),
        calls=[
            BatchCall(
                f"r{i}",
                c.item_id,
                c.condition,
                c.request_hash,
                c.image.width if c.image else None,
                c.image.height if c.image else None,
                len(c.image.data) if c.image else None,
            )
            for i, c in enumerate(chunk)
        ],
        run_id=run_id,
    )


def _support(model: ModelConfig) -> BatchSupport:
    support = model.spec.batch
    if support is None:  # run_batch sends these directly
        raise LabelerError(f"{model.name}: the {model.provider} provider has no batch API")
    return support


def _chunks(calls: list[PlannedCall], support: BatchSupport) -> Iterator[list[PlannedCall]]:
    """Consecutive runs of ``calls`` within one job's request count and size."""
    chunk: list[PlannedCall] = []
    size = 0
    for call in calls:
        cost = len(call.prompt.encode("utf-8")) + _OVERHEAD_BYTES
        if call.image is not None:
            cost += 4 * ((len(call.image.data) + 2) // 3)
        if chunk and (len(chunk) >= support.max_requests or size + cost > support.max_bytes):
            yield chunk
            chunk, size = [], 0
        chunk.append(call)
        size += cost
    if chunk:
        yield chunk


def _collect_locked(project: Project, on_answer: AnswerCallback | None) -> CollectSummary:
    counts: Counter[str] = Counter({s: 0 for s in STATUSES})
    finished, cost = 0, 0.0
    pending: list[Batch] = []
    for batch in reversed(project.batches.jobs(live_only=True)):  # oldest first
        model = ModelConfig(**batch.model_json)
        unset = missing_keys([model])
        if unset:
            raise ConfigError(
                f"collecting batch {batch.provider_id} of {model.name} needs the environment"
                f" variable {unset[model.name]}; export it with the API key"
            )
        client = _support(model).client(model)
        try:
            status = client.status(batch.provider_id)
            project.batches.set_status(
                batch.id, status.state, status.provider_state, status.answered
            )
            if status.state == "pending":
                pending.append(project.batches.get(batch.id))
                continue
            for response in _store_answers(project, batch, model, client, status.state):
                counts[response.status] += 1
                cost += response.cost_usd or 0.0
                if on_answer is not None:
                    on_answer(response)
            project.batches.finish(batch.id)
            finished += 1
        finally:
            client.close()
    return CollectSummary(finished, dict(counts), cost, pending)


def _store_answers(
    project: Project, batch: Batch, model: ModelConfig, client: BatchClient, state: str
) -> Iterator[NewResponse]:
    """Store the answer of every call of a finished job still waiting for one."""
    waiting = {c.custom_id: c for c in project.batches.open_calls(batch.id)}
    if state != "failed":
        for custom_id, result in client.results(batch.provider_id):
            call = waiting.pop(custom_id, None)
            if call is not None:  # unknown or already stored (a collection resumed)
                yield _store(project, batch, model, call, result)
    for call in waiting.values():  # the job ended without answering these
        error = (
            f"not answered: the batch job ended {state} ({batch.provider_id});"
            " re-send with --retry-failed"
        )
        yield _store(project, batch, model, call, CallResult(API_ERROR, None, None, error=error))


def _store(
    project: Project, batch: Batch, model: ModelConfig, call: BatchCall, result: CallResult
) -> NewResponse:
    """One answer through the streaming path's parse and row, at the batch price."""
    planned = PlannedCall(
        call.item_id, "", model, call.condition, "", None, call.request_hash, batch.settings, True
    )
    row = replace(
        answer_row(planned, result, 1, batch.run_id),
        latency_ms=None,
        image_width=call.image_width,
        image_height=call.image_height,
        image_bytes=call.image_bytes,
    )
    project.batches.store_answer(batch.id, call.custom_id, row, project.responses)
    return row
