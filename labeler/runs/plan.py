"""What a run would send: every (item, model, condition) cell to ask, with its exact prompt,
image and request hash, minus the cells already answered for the same request.

The plan is made before anything is sent, so ``--dry-run``, the cost estimate, batch mode and
the runner all see the very calls a real run makes (:mod:`labeler.runs.runner`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from labeler.errors import LabelerError
from labeler.prompts import (
    ALL_CONDITIONS,
    CONDITIONS,
    is_slot_condition,
    needs_image,
    project_prompts,
)
from labeler.providers.base import (
    API_ERROR,
    EMPTY,
    OK,
    PARSE_ERROR,
    REFUSED,
    TRUNCATED,
    ImagePayload,
)
from labeler.providers.config import ModelConfig
from labeler.providers.images import prepare_image
from labeler.runs import spool
from labeler.runs.cost import estimate_call_cost
from labeler.slots import SlotQuestion, slot_question
from labeler.store import Project
from labeler.store.responses import Cell

# A finished answer is never paid for twice; failures are re-sent only on request.
FINAL = (OK, PARSE_ERROR, REFUSED)
RETRYABLE = (API_ERROR, TRUNCATED, EMPTY)


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
class RunRequest:
    """What to run: which models, conditions and items, and whether failed cells go again.

    ``item_ids`` None means every item that is not excluded. The plan, the stored run
    record and ``--dry-run`` all read this one record, so they cannot disagree.
    """

    models: Sequence[ModelConfig]
    conditions: Sequence[str] = CONDITIONS
    item_ids: Sequence[str] | None = None
    retry_failed: bool = False


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
    done = _answered(project, request)
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


def unanswered(project: Project, request: RunRequest, plan: RunPlan) -> RunPlan:
    """``plan`` without the cells answered since it was made (by a run that held the lock)."""
    done = _answered(project, request)
    calls = [
        c for c in plan.calls if (c.item_id, c.model.name, c.condition, c.request_hash) not in done
    ]
    return replace(plan, calls=calls, skipped=plan.skipped + len(plan.calls) - len(calls))


def _answered(project: Project, request: RunRequest) -> set[Cell]:
    """The cells whose stored answer a run of ``request`` does not send again."""
    return project.responses.cells_with_status(FINAL if request.retry_failed else FINAL + RETRYABLE)
