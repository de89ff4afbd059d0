"""Reviewer decisions: who approved an item, confirmed its key, overrode a score or commented.

Every decision is one append-only row of ``review_events`` (:mod:`labeler.store.reviews`)
with the reviewer's name and the time; :func:`undo` appends a reversal and never deletes, so
the trail shows what was decided, by whom, and what was taken back. What is *in force* is read
from the trail here, in one place: :func:`effective_overrides` is what
:func:`labeler.results.load_results` applies, so a report, the leaderboard and an export count
the reviewer's score where one overrode the scorer's. An override judges one stored answer (its
response id): a new answer to the cell is scored afresh until someone reviews it.

The CLI names the reviewer with ``--reviewer`` or ``LABELER_REVIEWER``, the GUI from its
preferences (:func:`reviewer_name`); a decision without a name is refused, since an audit
trail of anonymous decisions vouches for nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from labeler.errors import LabelerError
from labeler.prompts import CONDITIONS
from labeler.readiness import ready_blockers, update_item
from labeler.status import ResponseStatus
from labeler.store import KeyEntry, Project
from labeler.store.reviews import NewReviewEvent, ReviewEvent
from labeler.text.counted import counted

REVIEWER_ENV = "LABELER_REVIEWER"

#: Words a reviewer may give instead of a number for an overridden score.
SCORE_WORDS = {"correct": 1.0, "incorrect": 0.0, "right": 1.0, "wrong": 0.0}


class ReviewError(LabelerError):
    """A review decision cannot be made as asked (no reviewer, no answer, bad value …)."""


@dataclass(frozen=True)
class Override:
    """The score a reviewer gave one answer in place of the scorer's, and why."""

    event_id: int
    item_id: str
    model: str
    condition: str
    response_id: int
    value: float
    reason: str
    reviewer: str
    created_at: str


@dataclass(frozen=True)
class Decision:
    """One decision of the trail with what became of it (for the history panels and the log)."""

    event: ReviewEvent
    undone_by: ReviewEvent | None = None  # the undo row that reversed it
    superseded: bool = False  # an override the same answer got again later
    stale: bool = False  # a key confirmation of a key that has changed since

    @property
    def in_force(self) -> bool:
        """Whether the decision still counts."""
        return self.undone_by is None and not self.superseded and not self.stale


@dataclass(frozen=True)
class ReviewCounts:
    """What the report and the public card say about review (never who or why)."""

    items_reviewed: int = 0  # approved, or whose current key a reviewer confirmed
    approvals: int = 0
    confirmed_keys: int = 0
    overrides: int = 0
    comments: int = 0
    reviewers: int = 0


def reviewer_name(given: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The reviewer: ``given`` (``--reviewer``, the GUI's preference), else ``LABELER_REVIEWER``."""
    env = os.environ if env is None else env
    name = " ".join((given if given is not None else env.get(REVIEWER_ENV, "")).split())
    if not name:
        raise ReviewError(
            f"say who is reviewing: --reviewer NAME or set {REVIEWER_ENV} "
            "(in the GUI: the Reviewer field of the Decisions panel)"
        )
    return name


def parse_score(text: str | float) -> float:
    """An overridden score: a number from 0 to 1, or ``correct`` (1) / ``incorrect`` (0)."""
    if isinstance(text, str) and text.strip().casefold() in SCORE_WORDS:
        return SCORE_WORDS[text.strip().casefold()]
    try:
        value = float(text)
    except ValueError:
        raise ReviewError(
            f"a score is a number from 0 to 1 or correct/incorrect, not {text!r}"
        ) from None
    if not 0.0 <= value <= 1.0:
        raise ReviewError(f"a score is from 0 to 1, not {value:g}")
    return value


def key_fingerprint(entries: Iterable[KeyEntry]) -> str:
    """What a key confirmation vouches for: the key's names, alternatives and markers."""
    parts = [[e.name, list(e.alternatives), e.marker] for e in entries]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]


# -- decisions ---------------------------------------------------------------


def approve(project: Project, item_id: str, reviewer: str) -> ReviewEvent:
    """Mark the item ``ready`` (the residual-label check still applies) and record who did."""
    before = project.items.get(item_id).status
    ready_blockers(project, item_id)  # reads the question back (maybe OCR) outside the lock
    with project.transaction():
        update_item(project, item_id, status="ready")
        return _append(project, NewReviewEvent(item_id, "approve", reviewer, detail=before))


def confirm_key(project: Project, item_id: str, reviewer: str) -> ReviewEvent:
    """Record that the reviewer checked the item's key as it is now."""
    project.items.get(item_id)
    detail = key_fingerprint(project.items.key(item_id))
    return _append(project, NewReviewEvent(item_id, "confirm-key", reviewer, detail=detail))


def override(
    project: Project,
    item_id: str,
    model: str,
    condition: str,
    value: str | float,
    reason: str,
    reviewer: str,
) -> ReviewEvent:
    """Give the cell's latest answer the score ``value`` in place of the scorer's, with a reason."""
    score = parse_score(value)
    if not reason.strip():
        raise ReviewError("say why the score is overridden (a reason is required)")
    answer = _latest_answer(project, item_id, model, condition)
    return _append(
        project,
        NewReviewEvent(
            item_id,
            "override",
            reviewer,
            model=model,
            condition=condition,
            response_id=answer,
            value=score,
            text=" ".join(reason.split()),
        ),
    )


def comment(
    project: Project,
    item_id: str,
    text: str,
    reviewer: str,
    model: str | None = None,
    condition: str | None = None,
) -> ReviewEvent:
    """A comment on the item, or on one of its cells (``model`` and ``condition`` both given)."""
    project.items.get(item_id)
    if not text.strip():
        raise ReviewError("a comment needs some text")
    if (model is None) != (condition is None):
        raise ReviewError("a cell comment names both the model and the condition")
    if condition is not None and condition not in CONDITIONS:
        raise ReviewError(f"unknown condition {condition!r}; use one of {', '.join(CONDITIONS)}")
    event = NewReviewEvent(
        item_id, "comment", reviewer, model=model, condition=condition, text=text.strip()
    )
    return _append(project, event)


def undo(project: Project, event_id: int, reviewer: str) -> ReviewEvent:
    """Reverse one decision by appending an ``undo`` row (an undone approval restores the
    status the item had before, if it is still ``ready``)."""
    target = project.reviews.get(event_id)
    if target.kind == "undo":
        raise ReviewError(f"decision {event_id} is itself an undo; make the decision again instead")
    done = next((e for e in project.reviews.events(target.item_id) if e.undoes == event_id), None)
    if done is not None:
        raise ReviewError(f"decision {event_id} was already undone by {done.reviewer} ({done.id})")
    with project.transaction():
        restore = target.kind == "approve" and target.detail != "ready"
        if restore and project.items.get(target.item_id).status == "ready":
            project.items.update(target.item_id, status=target.detail or "draft")
        event = NewReviewEvent(target.item_id, "undo", reviewer, undoes=event_id)
        return _append(project, event)


def last_undoable(project: Project, item_id: str, reviewer: str | None = None) -> ReviewEvent:
    """The item's newest decision still in force (by ``reviewer`` if given): what Undo reverses."""
    for decision in reversed(history(project, item_id)):
        event = decision.event
        mine = reviewer is None or event.reviewer == reviewer
        if event.kind != "undo" and decision.undone_by is None and mine:
            return event
    who = f" by {reviewer}" if reviewer else ""
    raise ReviewError(f"item {item_id} has no decision{who} to undo")


# -- reading the trail ---------------------------------------------------------


def history(project: Project, item_id: str | None = None) -> list[Decision]:
    """The trail (one item's or the project's), oldest first, each with what became of it."""
    events = project.reviews.events(item_id)
    undone = {e.undoes: e for e in events if e.kind == "undo"}
    latest_override: dict[int, int] = {}
    for e in events:
        if e.kind == "override" and e.id not in undone and e.response_id is not None:
            latest_override[e.response_id] = e.id
    keys: dict[str, list[KeyEntry]] = {}  # read only when a key confirmation is judged
    if any(e.kind == "confirm-key" for e in events):
        keys = project.items.keys() if item_id is None else {item_id: project.items.key(item_id)}
    out = []
    for e in events:
        superseded = (
            e.kind == "override"
            and e.id not in undone
            and e.response_id is not None
            and latest_override.get(e.response_id) != e.id
        )
        stale = e.kind == "confirm-key" and e.detail != key_fingerprint(keys.get(e.item_id, ()))
        out.append(Decision(e, undone.get(e.id), superseded, stale))
    return out


def in_force(decisions: Iterable[Decision], kind: str) -> list[ReviewEvent]:
    """The events of ``kind`` that still count."""
    return [d.event for d in decisions if d.event.kind == kind and d.in_force]


def effective_overrides(project: Project, item_id: str | None = None) -> dict[int, Override]:
    """Overrides in force (of one item, or all), by the response id they judge: what results
    count instead of the scorer's F1."""
    out: dict[int, Override] = {}
    for e in in_force(history(project, item_id), "override"):
        assert e.response_id is not None and e.value is not None
        assert e.model is not None and e.condition is not None
        out[e.response_id] = Override(
            e.id,
            e.item_id,
            e.model,
            e.condition,
            e.response_id,
            e.value,
            e.text,
            e.reviewer,
            e.created_at,
        )
    return out


def review_counts(project: Project, item_ids: Iterable[str] | None = None) -> ReviewCounts:
    """How many items were reviewed and how many decisions are in force (of ``item_ids``).

    Overrides count only those of answers that are still their cell's latest (the ones the
    numbers use).
    """
    wanted = None if item_ids is None else set(item_ids)
    decisions = [d for d in history(project) if wanted is None or d.event.item_id in wanted]
    approved = in_force(decisions, "approve")
    confirmed = in_force(decisions, "confirm-key")
    overrides = in_force(decisions, "override")
    if overrides:  # the latest answers' ids (100k at scale) only when there is one to check
        latest = {rid for rid, _ in project.responses.latest_ids()}
        overrides = [e for e in overrides if e.response_id in latest]
    comments = in_force(decisions, "comment")
    return ReviewCounts(
        items_reviewed=len({e.item_id for e in (*approved, *confirmed)}),
        approvals=len(approved),
        confirmed_keys=len(confirmed),
        overrides=len(overrides),
        comments=len(comments),
        reviewers=len({d.event.reviewer for d in decisions}),
    )


def counts_line(counts: ReviewCounts) -> str:
    """The report's line about review: items reviewed and overrides in force."""
    return (
        f"{counted(counts.items_reviewed, 'item')} reviewed, "
        f"{counted(counts.overrides, 'score')} overridden, "
        f"{counted(counts.comments, 'comment')}"
    )


def describe(decision: Decision) -> str:
    """One line for the log and the history panels: what was decided, on what, and its state."""
    e = decision.event
    cell = f" {e.model} · {e.condition}" if e.model else ""
    what = {
        "approve": "approved (ready)",
        "confirm-key": "confirmed the key",
        "override": f"overrode{cell} score → {e.value:g}: {e.text}" if e.value is not None else "",
        "comment": f"commented{cell}: {e.text}",
        "undo": f"undid decision {e.undoes}",
    }[e.kind]
    if decision.undone_by is not None:
        state = f" [undone by {decision.undone_by.reviewer}]"
    elif decision.superseded:
        state = " [superseded]"
    elif decision.stale:
        state = " [key changed since]"
    else:
        state = ""
    when = e.created_at[:16].replace("T", " ")  # minutes are enough to read; the trail keeps all
    return f"#{e.id} {when} {e.reviewer}: {what}{state}"


def audit_rows(project: Project, public_ids: Mapping[str, str]) -> list[dict[str, object]]:
    """The trail of the exported items (``--private`` exports write it as audit.jsonl)."""
    rows: list[dict[str, object]] = []
    for d in history(project):
        e = d.event
        if e.item_id not in public_ids:
            continue
        rows.append(
            {
                "id": e.id,
                "item_id": public_ids[e.item_id],
                "internal_id": e.item_id,
                "kind": e.kind,
                "model": e.model,
                "condition": e.condition,
                "response_id": e.response_id,
                "value": e.value,
                "text": e.text,
                "detail": e.detail,
                "undoes": e.undoes,
                "reviewer": e.reviewer,
                "created_at": e.created_at,
                "in_force": d.in_force,
            }
        )
    return rows


# -- helpers -----------------------------------------------------------------


def _append(project: Project, event: NewReviewEvent) -> ReviewEvent:
    if not event.reviewer.strip():
        raise ReviewError("say who is reviewing: a decision without a reviewer is not recorded")
    return project.reviews.append(event)


def _latest_answer(project: Project, item_id: str, model: str, condition: str) -> int:
    """The response id an override judges: the cell's latest answer (refused if it has none)."""
    project.items.get(item_id)
    answers = project.responses.history(item_id, model, condition)
    if not answers:
        raise ReviewError(
            f"item {item_id} has no answer from {model} under {condition!r} to override"
        )
    latest = answers[-1]
    if latest.status == ResponseStatus.API_ERROR:  # labeler.results: no answer, never counted
        raise ReviewError(
            f"the latest call of {model} under {condition!r} failed ({latest.status}): "
            "there is no answer to score; re-run it first"
        )
    return int(latest.id)
