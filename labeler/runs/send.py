"""Sending a plan: per-model worker pools and pacing on one asyncio loop, retries with
back-off, the spending cap, claims on a shared project, storing as answers arrive, progress.

The runner alone retries (SDK retries are off), with exponential back-off that honours
``Retry-After``; every attempt waits for the model's pace, so retries count against a rate
limit too.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from labeler.providers import make_provider
from labeler.providers.base import (
    API_ERROR,
    STATUSES,
    CallRequest,
    CallResult,
    Provider,
    TransientError,
)
from labeler.providers.config import ModelConfig
from labeler.runs.answers import answer_row, store_answer
from labeler.runs.claims import DEFAULT_LEASE_S, CallClaims, make_claims
from labeler.runs.cost import estimate_call_cost
from labeler.runs.limits import Pace, SpendingCap
from labeler.runs.plan import PlannedCall, RunPlan, baseline_corpus
from labeler.store import NewResponse, Project
from labeler.store.claims import Taken

DEFAULT_CONCURRENCY = 4
#: Answers up to this many characters are parsed on the loop (hostile text this long parses
#: in under 4 ms; a typical answer in 0.05 ms), longer ones on a thread.
INLINE_PARSE_CHARS = 2048


@dataclass(frozen=True)
class RetryPolicy:
    """At most ``max_attempts`` tries, waiting ``base_delay_s · 2^(n-1)`` (+ jitter) between them.

    A server's ``Retry-After`` wins when it asks for longer; ``max_delay_s`` caps both.
    """

    max_attempts: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 120.0

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        backoff = self.base_delay_s * 2.0 ** (attempt - 1) * (1 + random.random() * 0.25)
        wait = max(backoff, retry_after) if retry_after is not None else backoff
        return min(wait, self.max_delay_s)


@dataclass(frozen=True)
class RunProgress:
    """Where a run is: calls done of ``total``, counts per status, dollars spent so far."""

    total: int
    done: int
    counts: Mapping[str, int]
    cost_usd: float
    last: NewResponse | None = None


ProgressCallback = Callable[[RunProgress], None]


@dataclass(frozen=True)
class RunOptions:
    """How to run it: calls in flight per model, retry policy, spending cap, progress, cancel.

    ``concurrency`` is the default for models whose ``models.toml`` entry sets none.
    ``on_progress`` is called on the runner's thread after every stored response;
    setting ``cancel`` stops new calls (answers in flight are still stored).
    ``max_cost_usd`` stops sending before the next call could take the spend past it.
    ``claim_lease_s``: on a PostgreSQL project, how long a claimed call stays this runner's
    without a renewal (renewed every third of it; a killed runner's calls are taken over then).
    """

    concurrency: int = DEFAULT_CONCURRENCY
    max_cost_usd: float | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    on_progress: ProgressCallback | None = None
    cancel: threading.Event | None = None
    claim_lease_s: float = DEFAULT_LEASE_S


class Sender:
    """The asyncio side of one run: per-model worker pools and pacing, retries, the spending
    cap, storing, progress.

    Each model has its own queue, workers and pace, so a slow model (a local server) never
    holds up another model's calls, even when both speak the same provider protocol.
    """

    def __init__(self, project: Project, plan: RunPlan, run_id: int, options: RunOptions) -> None:
        self.project = project
        self.plan = plan
        self.run_id = run_id
        self.concurrency = options.concurrency
        self.retry = options.retry
        self.on_progress = options.on_progress
        self.cancel = options.cancel or threading.Event()
        self.cap = None if options.max_cost_usd is None else SpendingCap(options.max_cost_usd)
        self.done = 0
        self.counts: Counter[str] = Counter({s: 0 for s in STATUSES})
        self.cost = 0.0
        self.failure: Exception | None = None
        self.claims: CallClaims | None = make_claims(project, plan.calls, options.claim_lease_s)

    async def send_all(self) -> bool:
        """Send every planned call; returns whether the run was cancelled."""
        providers = self._providers()
        queues: dict[str, asyncio.Queue[PlannedCall]] = {}
        models: dict[str, ModelConfig] = {}
        for call in self.plan.calls:
            queues.setdefault(call.model.name, asyncio.Queue()).put_nowait(call)
            models[call.model.name] = call.model
        workers = []
        for name, queue in queues.items():
            pace = Pace(models[name].requests_per_minute)
            pool = models[name].concurrency or self.concurrency
            workers += [
                asyncio.create_task(self._worker(queue, providers[name], pace))
                for _ in range(min(pool, queue.qsize()))
            ]
        watcher = asyncio.create_task(self._watch_cancel(workers))
        helpers = [watcher]
        if self.claims is not None:
            helpers.append(asyncio.create_task(self.claims.heartbeat()))
        try:
            await asyncio.gather(*workers, return_exceptions=False)
        except asyncio.CancelledError:
            if not self.cancel.is_set():
                raise
        finally:
            for task in [*helpers, *workers]:
                task.cancel()
            await asyncio.gather(*workers, *helpers, return_exceptions=True)
            for provider in providers.values():
                await provider.aclose()
            if self.claims is not None and self.failure is None:
                self.claims.release()
        return self.cancel.is_set()

    def _providers(self) -> dict[str, Provider]:
        models = {call.model.name: call.model for call in self.plan.calls}
        corpus = None
        if any(m.provider == "baseline" for m in models.values()):
            corpus = baseline_corpus(self.project)
        return {name: make_provider(m, lambda: corpus) for name, m in models.items()}

    async def _watch_cancel(self, workers: list[asyncio.Task[None]]) -> None:
        while not self.cancel.is_set():
            await asyncio.sleep(0.05)
        for task in workers:
            task.cancel()

    async def _worker(
        self, queue: asyncio.Queue[PlannedCall], provider: Provider, pace: Pace
    ) -> None:
        held = 0  # calls in a row that other runners hold
        while not queue.empty() and self.failure is None:
            call = queue.get_nowait()
            if self.claims is not None:
                taken = self.claims.take(call)
                if taken is Taken.DONE:
                    continue
                if taken is Taken.HELD:  # another runner's: look again later, try the next one
                    queue.put_nowait(call)
                    held += 1
                    if held >= queue.qsize():  # a whole round found nothing free: wait
                        held = 0
                        await asyncio.sleep(self.claims.poll_s)
                    continue
                held = 0
            estimate = 0.0
            if self.cap is not None:
                estimate = estimate_call_cost(call.model, call.prompt, call.image) or 0.0
                if not await self.cap.claim(estimate):
                    return
            request = CallRequest(
                call.prompt, call.image, call.item_id, call.subject, call.condition, call.marks
            )
            result, attempts = await send_with_retries(provider, request, self.retry, pace.wait)
            response = await _answer_row(call, result, attempts, self.run_id)
            if self.cap is not None:  # unknown actual cost: count the estimate
                actual = response.cost_usd
                await self.cap.settle(estimate, estimate if actual is None else actual)
            try:
                self._store(call, result, attempts, response)
            except Exception as exc:  # the store itself fails: send nothing new, keep in-flight
                self.failure = self.failure or exc

    def _store(
        self, call: PlannedCall, result: CallResult, attempts: int, response: NewResponse
    ) -> None:
        """Store one answer (:func:`~labeler.runs.answers.store_answer`), count it, report."""
        response = store_answer(self.project, self.claims, call, result, attempts, response)
        self.done += 1
        self.counts[response.status] += 1
        self.cost += response.cost_usd or 0.0
        if self.on_progress is not None:
            self.on_progress(
                RunProgress(len(self.plan.calls), self.done, dict(self.counts), self.cost, response)
            )


async def _answer_row(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None
) -> NewResponse:
    """:func:`answer_row`, off the loop when the answer is long.

    Parsing is pure CPU (bounded, yet ~0.3 s on 1 MB of hostile output): a long answer is
    parsed on a thread, so the other calls' streams and the cancel watcher keep running. A
    short one is parsed in place: handing it to a thread costs more CPU than parsing it.
    """
    if result.text is None or len(result.text) <= INLINE_PARSE_CHARS:
        return answer_row(call, result, attempts, run_id)
    return await asyncio.to_thread(answer_row, call, result, attempts, run_id)


async def send_with_retries(
    provider: Provider,
    request: CallRequest,
    policy: RetryPolicy,
    pace: Callable[[], Awaitable[None]] | None = None,
) -> tuple[CallResult, int]:
    """One call with retries on transient failures; returns the result and attempts used.

    ``pace`` is awaited before every attempt, so retries count against a rate limit too.
    """
    for attempt in range(1, policy.max_attempts + 1):
        if pace is not None:
            await pace()
        try:
            return await provider.call(request), attempt
        except TransientError as exc:
            if attempt == policy.max_attempts:
                error = f"{exc} (gave up after {attempt} attempts)"
                return CallResult(API_ERROR, None, None, error=error), attempt
            await asyncio.sleep(policy.delay(attempt, exc.retry_after))
        except Exception as exc:  # a malformed response must not stop the whole run
            error = f"{type(exc).__name__}: {exc}"
            return CallResult(API_ERROR, None, None, error=error), attempt
    raise AssertionError("unreachable")  # pragma: no cover
