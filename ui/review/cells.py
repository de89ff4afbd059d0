"""What the review screens show: every item's latest answers, scored by the core.

A project of 100,000 answers must open as fast as one of 7,000, so nothing
here that grows with the project runs on the GUI thread. :func:`load_review`
runs on a worker with its own connection: it takes every cell's score from
:func:`labeler.results.cell_summaries` (the numbers :func:`labeler.results.load_results`
gives, read as columns from the store's score cache, without the names and matches
the matrix does not show) and keeps only what the matrix paints — a small
:class:`CellSummary` per cell — plus each item's filter flags, so switching filters
is a lookup. :class:`ReviewData`
wraps that snapshot on the GUI thread; the one item the curator opens is read
in full (its raw answers, :func:`labeler.store.summaries.item_latest`) and its
names scored by :func:`labeler.results.score_cell` with the item's
:func:`labeler.results.project_lexicon` — the same numbers, for ~50 cells — on a worker
too (:func:`load_item_answers`: 40 answers of a realistic item took ≈ 0.1 s of the GUI
thread), and handed over whole (:meth:`ReviewData.adopt`).
Whether a cell's answer counts is :func:`labeler.results.answer_counts`; items
whose key prints marker letters also get the cell's marker accuracy
(:func:`labeler.results.score_markers`).
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labeler.lexicon import Lexicon
from labeler.prompts import ALL_CONDITIONS
from labeler.results import (
    CellSummaries,
    answer_labels,
    cell_summaries,
    key_markers,
    key_names,
    project_lexicon,
    score_cell,
    score_markers,
)
from labeler.scoring import MarkerScore, NameScore
from labeler.status import ResponseStatus
from labeler.store import Item, Project, Response
from labeler.store.summaries import item_latest
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


@dataclass(frozen=True, slots=True)
class CellSummary:
    """What the matrix paints for one cell: its latest answer's status and score."""

    response_id: int
    status: str
    parse_ok: bool
    stale: bool  # answered for an older subject or image
    counts: bool  # labeler.results.answer_counts
    f1: float
    precision: float
    recall: float
    markers: MarkerScore | None = None  # items whose key has named markers


class Cells:
    """The matrix's cells by ``(item id, model, condition)``, each a :class:`CellSummary`.

    Built on the worker from each item's positions in the summary columns
    (:func:`item_positions`); an item's ``(model, condition)`` index and a cell's summary
    are made when the matrix asks for them (the rows painted), not 100k of them up front.
    """

    def __init__(self, scored: CellSummaries, positions: dict[str, list[int]]) -> None:
        self._scored = scored
        self._counts = scored.counts
        self._positions = positions
        self._rows: dict[str, dict[tuple[str, str], int]] = {}  # filled on the GUI thread

    def __len__(self) -> int:
        return len(self._scored)

    def get(self, key: CellKey) -> CellSummary | None:
        """The cell's summary, or None when the cell was never run."""
        item_id, model, condition = key
        row = self._rows.get(item_id)
        if row is None:
            s, at = self._scored, self._positions.get(item_id, ())
            row = self._rows[item_id] = {(s.model[i], s.condition[i]): i for i in at}
        i = row.get((model, condition))
        if i is None:
            return None
        s = self._scored
        return CellSummary(
            s.response_id[i], s.status[i], s.parse_ok[i], s.stale[i], self._counts[i],
            s.f1[i], s.precision[i], s.recall[i], s.markers[i],
        )  # fmt: skip


def item_positions(scored: CellSummaries) -> dict[str, list[int]]:
    """Each item's cells' positions in the summary columns, in column order.

    One pass over the cells, shared by the matrix's index, the row digests and the
    filters, which then work an item at a time (C-level slices of the columns).
    """
    positions: dict[str, list[int]] = {}
    for i, item_id in enumerate(scored.item_id):
        found = positions.get(item_id)
        if found is None:
            positions[item_id] = [i]
        else:
            found.append(i)
    return positions


@dataclass(frozen=True)
class ReviewSnapshot:
    """Everything the matrix needs, read and scored on a worker (no raw answer text)."""

    items: list[Item]
    keys: dict[str, tuple[str, ...]]
    markers: dict[str, dict[str, str]]
    columns: list[Column]
    cells: Cells
    flagged: dict[str, frozenset[str]] = field(default_factory=dict)  # filter -> item ids
    overrides: dict[int, float] = field(default_factory=dict)  # response id -> reviewer's F1
    rows: dict[str, int] = field(default_factory=dict)  # item id -> :func:`row_digests`


def load_review(folder: Path) -> ReviewSnapshot:
    """Read every cell's score for the review screens (on a worker: own connection)."""
    with Project.open(folder) as project:
        snapshot = _snapshot(cell_summaries(project))
        # Built and indexed here, on the worker: ``project_lexicon`` keeps the global lexicon
        # by its rows, so opening the first item finds it ready instead of building it on
        # the GUI thread (≈ 0.3 s for a lexicon of 2,000 rows).
        _ = project_lexicon(project).index
        return snapshot


def _snapshot(scored: CellSummaries) -> ReviewSnapshot:
    order = {c: i for i, c in enumerate(ALL_CONDITIONS)}
    columns = sorted(
        (Column(m, c) for m, c in set(zip(scored.model, scored.condition, strict=True))),
        key=lambda col: (col.model, order.get(col.condition, len(order))),
    )
    entries = scored.keys
    keys = {i: key_names(e) for i, e in entries.items()}
    markers = {i: found for i, e in entries.items() if (found := key_markers(e))}
    positions = item_positions(scored)
    return ReviewSnapshot(
        items=list(scored.items.values()),
        keys=keys,
        markers=markers,
        columns=columns,
        cells=Cells(scored, positions),
        flagged=_flagged(scored),
        overrides=scored.overrides,
        rows=row_digests(scored, keys, markers, positions),
    )


def row_digests(
    scored: CellSummaries,
    keys: dict[str, tuple[str, ...]],
    markers: dict[str, dict[str, str]],
    positions: dict[str, list[int]],
) -> dict[str, int]:
    """A hash per item of everything its matrix row shows (item, key, every cell's summary).

    Computed on the worker, so that the GUI thread finds the rows a new snapshot changed
    by comparing one integer per item (:meth:`ReviewData.changed`): the end of a run
    repaints the rows it answered, not the whole matrix. Each column's values for the
    item's cells (``positions``) are taken at once, not a tuple built per cell. NaN
    ("not run") becomes None, since Python hashes each NaN object differently.
    """
    s = scored
    shown = (
        s.model, s.condition, s.response_id, s.status, s.parse_ok, s.stale, s.counts,
        *map(_numbers, (s.f1, s.precision, s.recall, s.marker_accuracy)),
    )  # fmt: skip
    digests = {}
    for item in s.items.values():
        take = _taker(positions.get(item.id, []))
        cells = tuple(map(take, shown))
        letters = tuple(sorted(markers.get(item.id, {}).items()))
        row = (item.version, item.subject, item.status, keys.get(item.id))
        digests[item.id] = hash((row, letters, cells))
    return digests


def _taker(positions: list[int]) -> Callable[[list[Any]], tuple[Any, ...]]:
    """A function giving a column's values at ``positions`` as a tuple (one C-level call)."""
    if len(positions) == 1:
        return lambda column: (column[positions[0]],)
    return operator.itemgetter(*positions) if positions else lambda column: ()


def _numbers(column: list[float | None]) -> list[float | None]:
    """``column`` with NaN as None (the column itself when it holds none, the usual case).

    A NaN makes the sum of the column's non-zero numbers NaN (a C-level pass; an
    ``inf`` and a ``-inf`` would too, and only cost the copy).
    """
    if not math.isnan(sum(filter(None, column))):
        return column
    return [None if v is None or math.isnan(v) else v for v in column]


def _flagged(scored: CellSummaries) -> dict[str, frozenset[str]]:
    """The items each of :data:`FILTERS` keeps (all but "all").

    Models "disagree" when their F1 for the same condition differ by at least
    :data:`DISAGREEMENT`; failed calls are not answers and take no part in it.
    """
    cells = zip(scored.item_id, scored.status, scored.parse_ok, strict=True)
    failures, parse_errors = set(), set()
    for item_id, status, parse_ok in cells:
        if status in FAILURE_STATUSES:
            failures.add(item_id)
        if status == _PARSE_ERROR or (status == _OK and not parse_ok):
            parse_errors.add(item_id)
    answered: dict[tuple[str, str], list[float]] = {}  # (item, condition) -> F1s, in order
    by_condition = zip(scored.item_id, scored.condition, strict=True)
    for key, status, f1 in zip(by_condition, scored.status, scored.f1, strict=True):
        if status not in FAILURE_STATUSES:
            found = answered.get(key)
            if found is None:
                answered[key] = [f1]
            else:
                found.append(f1)
    # min/max fold in order, as a running lowest/highest would (a NaN first stays, later ones
    # are passed over)
    different = {
        item_id for (item_id, _), f1s in answered.items() if max(f1s) - min(f1s) >= DISAGREEMENT
    }
    return {
        "different": frozenset(different),
        "failures": frozenset(failures),
        "parse_errors": frozenset(parse_errors),
    }


_OK, _PARSE_ERROR = str(ResponseStatus.OK), str(ResponseStatus.PARSE_ERROR)


@dataclass(frozen=True)
class ItemAnswers:
    """One item's latest answers, their name-set scores and marker scores (a worker's)."""

    item_id: str
    responses: dict[CellKey, Response]
    lexicon: Lexicon
    scores: dict[CellKey, NameScore]
    markers: dict[CellKey, MarkerScore]


def load_item_answers(
    folder: Path, item_id: str, key: tuple[str, ...], markers: dict[str, str] | None
) -> ItemAnswers:
    """Read and score the item the curator opens (on a worker: own connection)."""
    with Project.open(folder) as project:
        responses = {(r.item_id, r.model, r.condition): r for r in item_latest(project, item_id)}
        lexicon = project_lexicon(project, item_id)
    return ItemAnswers(
        item_id=item_id,
        responses=responses,
        lexicon=lexicon,
        scores={k: score_cell(r.predicted_names, key, lexicon) for k, r in responses.items()},
        markers={
            k: score_markers(answer_labels(r.labels), markers, lexicon)
            for k, r in responses.items()
        }
        if markers
        else {},
    )


class ReviewData:
    """A read-only snapshot of a project's items, keys and latest answers' scores.

    Built on the GUI thread from a :class:`ReviewSnapshot` (no project-sized work);
    the answers of an item the curator opens are read from ``project`` then.
    """

    def __init__(
        self, project: Project, snapshot: ReviewSnapshot, previous: ReviewData | None = None
    ) -> None:
        self.items = snapshot.items
        self._items = {item.id: item for item in self.items}
        self.keys = snapshot.keys
        self.markers = snapshot.markers
        self.columns = snapshot.columns
        self.cells = snapshot.cells
        self.flagged = snapshot.flagged
        self._project = project  # read on the GUI thread only, like every view's project
        self._lexicons: dict[str, Lexicon] = {}
        # a reviewer's score replaces the scorer's F1, as in every published number
        self.overrides = snapshot.overrides
        self.rows = snapshot.rows
        self._answers: dict[str, dict[CellKey, Response]] = {}  # the items opened
        self._scored: dict[str, ItemAnswers] = {}  # their scores, from a worker (adopt)
        if previous is not None:  # the items a newer snapshot left as they were keep theirs
            for item_id, answers in previous._scored.items():
                if not self.changed(previous, item_id):
                    self.adopt(answers)

    def changed(self, previous: ReviewData, item_id: str) -> bool:
        """Whether ``item_id``'s row (item, key or any cell) differs from ``previous``'s."""
        digest = self.rows.get(item_id)
        return digest is None or digest != previous.rows.get(item_id)

    def item(self, item_id: str) -> Item:
        """The item called ``item_id``."""
        return self._items[item_id]

    # -- lexicon ------------------------------------------------------------

    def reload_lexicon(self) -> None:
        """The lexicon changed: re-read each item's lexicon (its scores are keyed by it)."""
        self._lexicons.clear()
        self._scored.clear()

    def adopt(self, answers: ItemAnswers) -> None:
        """Take an item's answers and scores as a worker read them (:func:`load_item_answers`)."""
        if len(self._answers) > 64:  # only the items the curator stepped through
            self._answers.clear()
            self._scored.clear()
        self._answers[answers.item_id] = answers.responses
        self._lexicons[answers.item_id] = answers.lexicon
        self._scored[answers.item_id] = answers

    def prepared(self, item_id: str) -> bool:
        """Whether the item's answers and scores are here (no store read, no scoring)."""
        return item_id in self._scored

    def lexicon_for(self, item_id: str) -> Lexicon:
        """The lexicon export scores this item with (:func:`labeler.results.project_lexicon`)."""
        if item_id not in self._lexicons:
            self._lexicons[item_id] = project_lexicon(self._project, item_id)
        return self._lexicons[item_id]

    # -- cells --------------------------------------------------------------

    def summary(self, item_id: str, column: Column) -> CellSummary | None:
        """What the matrix shows for a cell, or None when the cell was never run."""
        return self.cells.get((item_id, column.model, column.condition))

    def response(self, item_id: str, column: Column) -> Response | None:
        """The latest answer in a cell, in full (read when its item is opened)."""
        answers = self._answers.get(item_id)
        if answers is None:
            if len(self._answers) > 64:  # only the items the curator stepped through
                self._answers.clear()
            answers = self._answers[item_id] = {
                (r.item_id, r.model, r.condition): r for r in item_latest(self._project, item_id)
            }
        return answers.get((item_id, column.model, column.condition))

    def score(self, item_id: str, column: Column) -> NameScore | None:
        """The cell's name-set score, or None when the cell was never run."""
        response = self.response(item_id, column)
        if response is None:
            return None
        scored = self._scored.get(item_id)
        score = (
            scored.scores[(item_id, column.model, column.condition)]
            if scored is not None
            else score_cell(
                response.predicted_names, self.keys.get(item_id, ()), self.lexicon_for(item_id)
            )
        )
        override = self.overrides.get(response.id)
        return score if override is None else dataclasses.replace(score, f1=override)

    def stale(self, item_id: str, column: Column) -> bool:
        """The cell's answer was given for an older subject or image (export leaves it out)."""
        cell = self.summary(item_id, column)
        return cell is not None and cell.stale

    def counts(self, item_id: str, column: Column) -> bool:
        """Whether the cell's answer counts (:func:`labeler.results.answer_counts`)."""
        cell = self.summary(item_id, column)
        return cell is not None and cell.counts

    def marker_score(self, item_id: str, column: Column) -> MarkerScore | None:
        """The cell's marker accuracy; None when never run or the key has no named markers."""
        response, markers = self.response(item_id, column), self.markers.get(item_id)
        if response is None or not markers:
            return None
        scored = self._scored.get(item_id)
        if scored is not None:
            return scored.markers[(item_id, column.model, column.condition)]
        return score_markers(answer_labels(response.labels), markers, self.lexicon_for(item_id))

    # -- item filters -------------------------------------------------------

    def keeps(self, item_id: str, filter_name: str) -> bool:
        """Whether an item passes one of :data:`FILTERS`."""
        return filter_name == "all" or item_id in self.flagged.get(filter_name, frozenset())

    def filtered(self, filter_name: str) -> list[str]:
        """The ids of the items passing ``filter_name``, in order."""
        return [i.id for i in self.items if self.keeps(i.id, filter_name)]


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
