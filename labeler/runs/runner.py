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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import sqlite3
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from labeler.errors import LabelerError
from labeler.prompts import (
    ALL_CONDITIONS,
    CONDITIONS,
    is_slot_condition,
    needs_image,
    project_prompts,
    prompt_sha256,
)
from labeler.providers import make_provider
from labeler.providers.base import (
    API_ERROR,
    EMPTY,
    OK,
    PARSE_ERROR,
    REFUSED,
    STATUSES,
    TRUNCATED,
    CallRequest,
    CallResult,
    ImagePayload,
    Provider,
    TransientError,
)
from labeler.providers.config import ModelConfig
from labeler.providers.images import prepare_image
from labeler.runs import spool
from labeler.runs.claims import DEFAULT_LEASE_S, CallClaims, make_claims, run_guard
from labeler.runs.cost import call_cost, estimate_call_cost
from labeler.runs.limits import Pace, SpendingCap
from labeler.runs.parse import Label, ParsedAnswer, parse_answer
from labeler.slots import SlotQuestion, slot_question
from labeler.store import NewResponse, Project
from labeler.store.claims import Taken

DEFAULT_CONCURRENCY = 4
# A finished answer is never paid for twice; failures are re-sent only on request.
FINAL = (OK, PARSE_ERROR, REFUSED)
RETRYABLE = (API_ERROR, TRUNCATED, EMPTY)
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
        backoff = self.base_delay_s * 2 ** (attempt - 1) * (1 + random.random() * 0.25)
        wait = max(backoff, retry_after) if retry_after is not None else backoff
        return min(wait, self.max_delay_s)


@dataclass(frozen=True)
class PlannedCall:
    """One cell to send: what goes out and how it is identified."""

    item_id: str
    subject: str
    model: ModelConfig
    condition: str
    prompt: str
    image: ImagePayload | None
    request_hash: str
    settings: Mapping[str, object]
    batch: bool = False  # sent through the provider's batch API (its batch price)
    marks: tuple[str, ...] = ()  # a slot question's marks, in slot order


@dataclass(frozen=True)
class RunPlan:
    """The calls to make, the cells skipped as already done, and cells that cannot run."""

    calls: list[PlannedCall]
    skipped: int
    unrunnable: list[str]

    def estimated_cost(self, batch: bool = False) -> tuple[float, list[str]]:
        """Estimated dollars for the priced models, and the models without prices;
        ``batch``: at the batch price of the models that have a batch API."""
        total, unpriced = 0.0, set()
        for call in self.calls:
            in_batch = batch and call.model.spec.batch is not None
            cost = estimate_call_cost(call.model, call.prompt, call.image, in_batch)
            if cost is None:
                unpriced.add(call.model.name)
            else:
                total += cost
        return total, sorted(unpriced)


@dataclass(frozen=True)
class RunProgress:
    """Where a run is: calls done of ``total``, counts per status, dollars spent so far."""

    total: int
    done: int
    counts: Mapping[str, int]
    cost_usd: float
    last: NewResponse | None = None


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


ProgressCallback = Callable[[RunProgress], None]


@dataclass(frozen=True)
class RunRequest:
    """What to run: which models, conditions and items, and whether failed cells go again.

    ``item_ids`` None means every item that is not excluded. The plan, the stored run
    record and ``--dry-run`` all read this one record, so they cannot disagree.
    """

    models: Sequence[ModelConfig]
    conditions: Sequence[str] = CONDITIONS
    item_ids: Sequence[str] | None = None
    retry_failed: bool = False


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


def request_hash(
    model: ModelConfig, prompt: str, image: ImagePayload | None, settings: Mapping[str, object]
) -> str:
    """SHA-256 of prompt + image bytes + model + stored settings (never the key).

    The stored settings include the route (``base_url``): the same model id served by
    another route (OpenRouter vs native, card caveat 7.2) is another request.
    """
    payload = {
        "prompt": prompt,
        "image": hashlib.sha256(image.data).hexdigest() if image else None,
        "name": model.name,
        "provider": model.provider,
        "model": model.model,
        "settings": dict(settings),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


def baseline_corpus(project: Project) -> dict[str, tuple[str, list[str]]]:
    """item_id → (subject, key names) for the offline baseline (excluded items left out)."""
    keys = project.items.keys()
    return {
        item.id: (item.subject, [e.name for e in keys.get(item.id, []) if e.name.strip()])
        for item in project.items.list()
        if item.status != "excluded"
    }


def _corpus_digest(corpus: Mapping[str, tuple[str, Sequence[str]]]) -> str:
    text = json.dumps(sorted((k, v[0], list(v[1])) for k, v in corpus.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def plan_run(project: Project, request: RunRequest) -> RunPlan:
    """The calls a run would make, in item × model × condition order, minus finished cells.

    Answers spooled because an earlier run could not store them are stored first, so the
    cells they answer are not asked (and paid for) again.
    """
    models, conditions, item_ids = request.models, request.conditions, request.item_ids
    bad = [c for c in conditions if c not in ALL_CONDITIONS]
    if bad:
        raise LabelerError(f"unknown condition(s) {bad}; use {', '.join(ALL_CONDITIONS)}")
    prompts = project_prompts(project)
    spool.replay(project)
    if item_ids is None:
        items = [i for i in project.items.list() if i.status != "excluded"]
    else:
        items = [project.items.get(i) for i in dict.fromkeys(item_ids)]
    done = project.responses.cells_with_status(FINAL if request.retry_failed else FINAL + RETRYABLE)
    corpus_digest = None
    if any(m.provider == "baseline" for m in models):
        corpus_digest = _corpus_digest(baseline_corpus(project))
    calls, unrunnable, skipped = [], [], 0
    asks_slots = any(is_slot_condition(c) for c in conditions)
    for item in items:
        raw_image = project.assets.read(item.question_asset) if item.question_asset else None
        slots = slot_question(project, item.id) if asks_slots else None
        for model in models:
            settings = _settings(model, corpus_digest)
            images = _images(model, raw_image, slots)
            for condition in conditions:
                slotted = is_slot_condition(condition)
                if slotted and slots is None:
                    why = "no slot question (no question image, or no named boxed label)"
                    unrunnable.append(f"{item.id} {model.name} {condition}: {why}")
                    continue
                if needs_image(condition) and raw_image is None:
                    unrunnable.append(f"{item.id} {model.name} {condition}: no question image")
                    continue
                marks = slots.marks if slotted and slots is not None else ()
                prompt = prompts.build(condition, item.subject, marks)
                sent_image = images[slotted] if needs_image(condition) else None
                asked = settings
                if slotted and slots is not None:  # which key entry each mark asks about
                    asked = {**settings, "slot_order": [s.position for s in slots.slots]}
                digest = request_hash(model, prompt, sent_image, asked)
                if (item.id, model.name, condition, digest) in done:
                    skipped += 1
                    continue
                calls.append(
                    PlannedCall(
                        item.id,
                        item.subject,
                        model,
                        condition,
                        prompt,
                        sent_image,
                        digest,
                        asked,
                        marks=marks,
                    )
                )
    return RunPlan(calls, skipped, unrunnable)


def _images(
    model: ModelConfig, question: bytes | None, slots: SlotQuestion | None
) -> dict[bool, ImagePayload | None]:
    """The images sent to ``model``: the question (key False) and the slot image (True).

    A provider whose spec has no image limits (the offline baseline) is sent none: it
    never looks.
    """
    limits = model.spec.image_limits
    if limits is None:
        return {False: None, True: None}
    return {
        False: prepare_image(question, limits) if question is not None else None,
        True: prepare_image(slots.png, limits) if slots is not None else None,
    }


def _settings(model: ModelConfig, corpus_digest: str | None) -> dict[str, object]:
    """What is stored as ``settings_json``: decode settings plus the model's route."""
    settings: dict[str, object] = {"provider": model.provider, "model": model.model}
    if model.base_url:
        settings["base_url"] = model.base_url
    settings.update(model.settings)
    if model.provider == "baseline":
        settings["corpus"] = corpus_digest
    return settings


def run(
    project: Project,
    request: RunRequest,
    options: RunOptions | None = None,
    plan: RunPlan | None = None,
) -> RunSummary:
    """Plan ``request`` (unless given its ``plan``) and send; blocks until done or cancelled.

    A model's answer never ends a run (see ``_Sender._store``); if the project itself
    refuses a write, no new call is sent, the answers in flight are stored, then that
    error is raised. A second run on the same SQLite project while this one holds its lock
    raises :class:`~labeler.runs.lock.RunInProgress` before anything is sent; runs on one
    PostgreSQL project share its calls instead (:mod:`labeler.runs.claims`).
    """
    options = options or RunOptions()
    if options.concurrency < 1:
        raise LabelerError("concurrency must be at least 1")
    if options.max_cost_usd is not None and options.max_cost_usd < 0:
        raise LabelerError("the spending cap must be zero or more dollars")
    with run_guard(project):
        # a plan made before the lock was ours may hold cells another run answered since
        plan = plan_run(project, request) if plan is None else _unanswered(project, request, plan)
        return _run_locked(project, request, options, plan)


def _unanswered(project: Project, request: RunRequest, plan: RunPlan) -> RunPlan:
    """``plan`` without the cells answered since it was made (by a run that held the lock)."""
    done = project.responses.cells_with_status(FINAL if request.retry_failed else FINAL + RETRYABLE)
    calls = [
        c for c in plan.calls if (c.item_id, c.model.name, c.condition, c.request_hash) not in done
    ]
    return replace(plan, calls=calls, skipped=plan.skipped + len(plan.calls) - len(calls))


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
    sender = _Sender(project, plan, run_id, options)
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


class _Sender:
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

    async def _watch_cancel(self, workers: list[asyncio.Task]) -> None:
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
        """Store one answer; an answer that cannot be stored as is is kept raw.

        The call is paid for, and the other calls in flight must go on: whatever a
        model sent that the store refuses becomes one ``parse_error`` row holding the
        raw text and the reason.
        """
        try:
            self._record(call, response)
        except spool.StoreWriteFailed:
            raise
        except Exception as exc:
            response = unparsed_response(call, result, attempts, self.run_id, exc)
            self._record(call, response)
        self.done += 1
        self.counts[response.status] += 1
        self.cost += response.cost_usd or 0.0
        if self.on_progress is not None:
            self.on_progress(
                RunProgress(len(self.plan.calls), self.done, dict(self.counts), self.cost, response)
            )

    def _record(self, call: PlannedCall, response: NewResponse) -> None:
        """Store (and mark its claim done, in one transaction); if the store refuses (disk
        full, locked, read-only) spool the paid answer."""
        claims = self.claims
        try:
            with self.project.transaction() if claims else contextlib.nullcontext():
                self.project.responses.record(response)
                if claims is not None:
                    claims.finish(call)
        except sqlite3.OperationalError as exc:
            raise spool.keep(self.project, response, exc) from exc


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


def answer_row(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None
) -> NewResponse:
    """:func:`to_new_response`, and if the parser itself fails, the raw answer kept unparsed."""
    try:
        return to_new_response(call, result, attempts, run_id)
    except Exception as exc:  # a parser bug must not cost a paid answer nor end the run
        return unparsed_response(call, result, attempts, run_id, exc)


def to_new_response(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None
) -> NewResponse:
    """The stored row for one finished call: final status, parsed answer, audit fields.

    The parser decides an answered call's status: ``ok``, ``refused`` (a plain-text decline
    with no names), ``parse_error``, or ``truncated`` when the provider hit its limit.
    """
    status = result.status
    if status in (OK, TRUNCATED) and result.text is not None:
        parsed = parse_answer(result.text, truncated=status == TRUNCATED)
        status = parsed.status
    else:
        parsed = ParsedAnswer(None, [], False, None)
    error = result.error
    if error is None and status in (PARSE_ERROR, TRUNCATED, REFUSED):
        error = parsed.error
    if error is None and status == EMPTY:
        error = f"no answer text (finish_reason={result.finish_reason})"
        reasoning, output = result.usage.reasoning_tokens, result.usage.output_tokens
        if reasoning and output and reasoning >= output:
            error += f"; reasoning used the whole output budget ({reasoning} tokens)"
    if error is None and status == REFUSED:
        error = f"model declined (finish_reason={result.finish_reason})"
    return _row(call, result, attempts, run_id, status, parsed, error)


def unparsed_response(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None, exc: Exception
) -> NewResponse:
    """The row for an answer that could not be parsed or stored: raw text kept, no labels.

    Text that SQLite cannot encode (lone surrogates) is kept as backslash escapes.
    """
    status = PARSE_ERROR if result.text is not None else result.status
    error = _storable(f"answer could not be parsed or stored: {type(exc).__name__}: {exc}")
    raw = replace(result, text=_storable(result.text))
    return _row(call, raw, attempts, run_id, status, ParsedAnswer(None, [], False, None), error)


def _storable(text: str | None) -> str | None:
    if text is None:
        return None
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _row(
    call: PlannedCall,
    result: CallResult,
    attempts: int,
    run_id: int | None,
    status: str,
    parsed: ParsedAnswer,
    error: str | None,
) -> NewResponse:
    image = call.image
    return NewResponse(
        item_id=call.item_id,
        model=call.model.name,
        condition=call.condition,
        request_hash=call.request_hash,
        status=status,
        finish_reason=result.finish_reason,
        raw_text=_storable(result.text),
        diagram_is=parsed.diagram_is,
        labels=[_label_json(x) for x in parsed.labels],
        parse_ok=parsed.parse_ok,
        usage=result.usage,
        latency_ms=round(result.latency_s * 1000, 3),
        attempts=attempts,
        cost_usd=call_cost(call.model, result.usage, call.batch),
        settings=dict(call.settings),
        image_width=image.width if image else None,
        image_height=image.height if image else None,
        image_bytes=len(image.data) if image else None,
        error=error,
        run_id=run_id,
        parse_notes="; ".join(parsed.notes) or None,
        prompt_sha256=prompt_sha256(call.prompt),
    )


def _label_json(label: Label) -> dict[str, str]:
    """A stored label; ``marker`` only when the answer's structure gave one."""
    row = {"name": label.name, "location_hint": label.location_hint}
    if label.marker:
        row["marker"] = label.marker
    return row
