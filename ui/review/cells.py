"""What the review screens show: every item's latest answers, scored on demand.

Opening a 200-item × 36-column project must take under a second, so loading
reads the store in three queries and scores nothing; a cell is scored the first
time a view asks for it, by :func:`labeler.results.score_cell` — the scoring
``load_results`` and the export use — from the key's names
(:func:`labeler.results.key_names`) and the item's
:func:`labeler.results.project_lexicon`. The core memoises scores per lexicon,
so a cell asked for again, or after an unrelated lexicon edit's reload, is a lookup.
Whether a cell's answer counts is :func:`labeler.results.answer_counts` (the rule
the leaderboard, ``labeler report`` and the export use); items whose key prints
marker letters also get the cell's marker accuracy (:func:`labeler.results.score_markers`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from labeler.lexicon import Lexicon
from labeler.prompts import CONDITIONS
from labeler.results import (
    answer_counts,
    answer_labels,
    is_stale,
    key_markers,
    key_names,
    project_lexicon,
    score_cell,
    score_markers,
)
from labeler.review import effective_overrides
from labeler.scoring import MarkerScore, NameScore
from labeler.status import ResponseStatus
from labeler.store import Item, Project, Response
from ui.review.style import FAILURE_STATUSES

#: An item whose models' F1 for one condition spread by at least this much "disagrees".
DISAGREEMENT = 0.5

CellKey = tuple[str, str, str]  # item id, model, condition


@dataclass(frozen=True)
class Column:
    """One matrix column: a model under a condition."""

    model: str
    condition: str

    @property
    def short_model(self) -> str:
        """The model name without its provider prefix (``openai/gpt-4o`` → ``gpt-4o``)."""
        return self.model.rsplit("/", 1)[-1]


class ReviewData:
    """A read-only snapshot of a project's items, keys and latest responses."""

    def __init__(self, project: Project) -> None:
        self.items: list[Item] = project.items.list()
        self._items = {item.id: item for item in self.items}
        entries = project.items.keys()
        self.keys: dict[str, tuple[str, ...]] = {i: key_names(e) for i, e in entries.items()}
        self.markers: dict[str, dict[str, str]] = {
            i: found for i, e in entries.items() if (found := key_markers(e))
        }
        self.responses: dict[CellKey, Response] = {
            (r.item_id, r.model, r.condition): r for r in project.responses.latest()
        }
        order = {c: i for i, c in enumerate(CONDITIONS)}
        self.columns: list[Column] = sorted(
            {Column(m, c) for _, m, c in self.responses},
            key=lambda col: (col.model, order.get(col.condition, len(order))),
        )
        self._project = project  # read on the GUI thread only, like every view's project
        self._lexicons: dict[str, Lexicon] = {}
        # a reviewer's score replaces the scorer's F1, as in every published number
        self.overrides = {rid: o.value for rid, o in effective_overrides(project).items()}

    # -- lexicon ------------------------------------------------------------

    def reload_lexicon(self) -> None:
        """The lexicon changed: re-read each item's lexicon (its scores are keyed by it)."""
        self._lexicons.clear()

    def lexicon_for(self, item_id: str) -> Lexicon:
        """The lexicon export scores this item with (:func:`labeler.results.project_lexicon`)."""
        if item_id not in self._lexicons:
            self._lexicons[item_id] = project_lexicon(self._project, item_id)
        return self._lexicons[item_id]

    # -- cells --------------------------------------------------------------

    def response(self, item_id: str, column: Column) -> Response | None:
        """The latest answer in a cell, or None when the cell was never run."""
        return self.responses.get((item_id, column.model, column.condition))

    def score(self, item_id: str, column: Column) -> NameScore | None:
        """The cell's name-set score, or None when the cell was never run."""
        response = self.responses.get((item_id, column.model, column.condition))
        if response is None:
            return None
        score = score_cell(
            response.predicted_names, self.keys.get(item_id, ()), self.lexicon_for(item_id)
        )
        override = self.overrides.get(response.id)
        return score if override is None else dataclasses.replace(score, f1=override)

    def stale(self, item_id: str, column: Column) -> bool:
        """The cell's answer was given for an older subject or image (export leaves it out)."""
        response = self.response(item_id, column)
        return response is not None and is_stale(response, self._items[item_id])

    def counts(self, item_id: str, column: Column) -> bool:
        """Whether the cell's answer counts (:func:`labeler.results.answer_counts`)."""
        response = self.response(item_id, column)
        return response is not None and answer_counts(response.status, self.stale(item_id, column))

    def marker_score(self, item_id: str, column: Column) -> MarkerScore | None:
        """The cell's marker accuracy; None when never run or the key has no named markers."""
        response, markers = self.response(item_id, column), self.markers.get(item_id)
        if response is None or not markers:
            return None
        return score_markers(answer_labels(response.labels), markers, self.lexicon_for(item_id))

    # -- item filters -------------------------------------------------------

    def disagrees(self, item_id: str) -> bool:
        """Models' F1 for the same condition differ by at least :data:`DISAGREEMENT`.

        Failed calls are not answers, so they take no part in a disagreement.
        """
        by_condition: dict[str, list[float]] = {}
        for column in self.columns:
            response = self.response(item_id, column)
            if response is None or response.status in FAILURE_STATUSES:
                continue
            score = self.score(item_id, column)
            assert score is not None
            by_condition.setdefault(column.condition, []).append(score.f1)
        return any(max(f) - min(f) >= DISAGREEMENT for f in by_condition.values() if len(f) > 1)

    def has_failure(self, item_id: str) -> bool:
        """Some model gave no usable answer (truncated, empty, refused, API error)."""
        return any(r.status in FAILURE_STATUSES for r in self._item_responses(item_id))

    def has_parse_error(self, item_id: str) -> bool:
        """Some answer did not parse cleanly."""
        return any(
            r.status == ResponseStatus.PARSE_ERROR
            or (r.status == ResponseStatus.OK and not r.parse_ok)
            for r in self._item_responses(item_id)
        )

    def _item_responses(self, item_id: str) -> list[Response]:
        found = (self.response(item_id, c) for c in self.columns)
        return [r for r in found if r is not None]


def marker_text(markers: MarkerScore) -> str:
    """Marker accuracy in words: how many letters were right, which were wrong or missing."""
    parts = [f"marker accuracy: {len(markers.correct)} of {markers.n_markers} letters right"]
    if markers.wrong:
        parts.append("wrong: " + ", ".join(f"{k} = {v}" for k, v in markers.wrong.items()))
    if markers.unanswered:
        parts.append("unanswered: " + ", ".join(markers.unanswered))
    return " · ".join(parts)


FILTERS: dict[str, str] = {
    "all": "All items",
    "different": "Models disagree",
    "failures": "Failures",
    "parse_errors": "Parse errors",
}


def keep(data: ReviewData, item_id: str, filter_name: str) -> bool:
    """Whether an item passes one of :data:`FILTERS`."""
    if filter_name == "different":
        return data.disagrees(item_id)
    if filter_name == "failures":
        return data.has_failure(item_id)
    if filter_name == "parse_errors":
        return data.has_parse_error(item_id)
    return True


def filtered_items(folder: Path, filter_name: str) -> list[str]:
    """The ids of the items passing ``filter_name``, in order (for a worker: own connection)."""
    with Project.open(folder) as project:
        data = ReviewData(project)
        return [i.id for i in data.items if keep(data, i.id, filter_name)]
