"""Scored results: one row per (item, model, condition) cell, from the store.

This is the one bridge between the project store and scoring, shared by the
export and by the GUI's review matrix and leaderboard, so a number on screen is
the number that gets published. Each cell is the *latest* response of that
cell (responses are append-only), scored with :func:`labeler.scoring.score_names`
against the item's key names, using the project lexicon: the global rows plus
that item's own additions. :func:`score_cell` is that one cell's scoring, public
so a view that scores lazily gets the same number.

The per-item flags follow the dataset card:

* ``unsolved_core`` — no model solved the item (F1 = 1) in any condition;
* ``recitable`` — at least one model scored F1 >= 0.5 under ``no-image``.

Speed matters (the GUI opens a 7,200-cell matrix at once). Everything is read
with a handful of queries; lexicons are cached by their rows, so the scorer's
own memo tables survive between calls; answers are kept by response id (stored
responses never change) and scores by (lexicon, answer, key). Reopening the
matrix therefore re-reads and re-scores only what changed since the last call
(``bench/results_matrix.py``).

Which answers count is decided in one place, :func:`answer_counts` (see
``docs/decisions/0011-which-answers-count.md``): a cell's latest answer counts
when the model answered (any status but ``api_error``) and the answer is for
the item as it is now (not :func:`is_stale`). Truncated, empty, refused and
parse-error answers are the model's answers and count with what they scored
(usually 0). :func:`counted_results` is the list every view, ``labeler report``
and the export use, so they cannot show different numbers.

Items whose key prints marker letters also get the card's marker accuracy per
cell (:attr:`ScoredCell.markers`), scored from each label's name and
``location_hint`` with the item's lexicon.
"""

from __future__ import annotations

import functools
import operator
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from labeler.lexicon import Lexicon
from labeler.prompts import CONDITIONS, needs_image
from labeler.scoring import MarkerScore, NameScore, marker_accuracy, score_names
from labeler.scoring.bulk import collector_paused
from labeler.status import ResponseStatus
from labeler.store import Item, KeyEntry, Project, Response
from labeler.store.records import alternative_rows

if TYPE_CHECKING:
    import pandas as pd

#: Response statuses that carry no answer from the model (a transport failure is
#: not a score of 0); such cells are shown in review but never counted.
NO_ANSWER_STATUSES: frozenset[str] = frozenset({ResponseStatus.API_ERROR})

#: A labelled answer as marker accuracy reads it: ``(name, location_hint)`` per label.
Labels = tuple[tuple[str, str | None], ...]


def answer_counts(status: str, stale: bool) -> bool:
    """Whether a cell's latest answer counts in every published and shown number.

    It counts when the model answered — every status but ``api_error``, so a
    truncated, empty, refused or unparsable answer counts with the score its
    names earn (0 when it has none) — and was given for the item as it is now
    (``stale`` False). This is the one rule; ``docs/decisions/0011`` says why.
    """
    return status not in NO_ANSWER_STATUSES and not stale


@dataclass(frozen=True, slots=True)
class ScoredCell:
    """The latest response of one cell, scored, with its item's flags.

    ``item_id`` is the internal id (as everywhere in the store); ``public_id``
    is the published ``PREFIX-N`` if the item has been numbered, else ``None``.
    """

    item_id: str
    public_id: str | None
    model: str
    condition: str
    status: str
    origin: str
    response_id: int
    parse_ok: bool
    predicted_names: tuple[str, ...]
    key_names: tuple[str, ...]
    subject: str
    tier: str
    score: NameScore
    unsolved_core: bool
    recitable: bool
    stale: bool = False  # answered for an older subject or question image
    markers: MarkerScore | None = None  # marker accuracy, for items whose key has markers

    @property
    def answered(self) -> bool:
        """Whether the model answered at all."""
        return self.status not in NO_ANSWER_STATUSES

    @property
    def counts(self) -> bool:
        """Whether this answer counts (:func:`answer_counts`): what views, report and export use."""
        return answer_counts(self.status, self.stale)

    @property
    def marker_accuracy(self) -> float | None:
        """Share (0–1) of the key's named markers given the right name; None without markers."""
        return None if self.markers is None else self.markers.accuracy

    @property
    def f1(self) -> float:
        return self.score.f1

    @property
    def precision(self) -> float:
        return self.score.precision

    @property
    def recall(self) -> float:
        return self.score.recall

    @property
    def n_pred(self) -> int:
        return self.score.n_pred

    @property
    def n_key(self) -> int:
        return self.score.n_key


@dataclass(frozen=True, slots=True)
class ItemFlags:
    """The card's per-item flags."""

    unsolved_core: bool
    recitable: bool


FRAME_COLUMNS = (
    "item_id",
    "public_id",
    "model",
    "condition",
    "f1",
    "precision",
    "recall",
    "n_pred",
    "n_key",
    "predicted_names",
    "key_names",
    "subject",
    "tier",
    "unsolved_core",
    "recitable",
    "parse_ok",
    "status",
    "origin",
    "response_id",
    "marker_accuracy",
    "score",
)


def key_names(entries: Iterable[KeyEntry]) -> tuple[str, ...]:
    """The names of an answer key, in order (marker-only entries have no name)."""
    return tuple(e.name for e in entries if e.name)


def key_markers(entries: Iterable[KeyEntry]) -> dict[str, str]:
    """Marker letter -> key name for the key's named markers (what marker accuracy scores).

    A printed letter whose name the key does not give cannot be judged, so it is
    left out of the denominator.
    """
    found: dict[str, str] = {}
    for e in entries:
        if e.marker and e.name:
            found.setdefault(e.marker, e.name)
    return found


def score_markers(labels: Labels, markers: dict[str, str], lexicon: Lexicon) -> MarkerScore:
    """One cell's marker accuracy (:func:`labeler.scoring.marker_accuracy`), memoised per lexicon.

    Like :func:`score_cell`, Review calls this for the cell it shows, so its
    number is the one the Leaderboard and ``labeler report`` average.
    """
    memo = _MARKERS.get(lexicon)
    if memo is None:
        memo = _MARKERS[lexicon] = {}
    signature = (labels, tuple(sorted(markers.items())))
    found = memo.get(signature)
    if found is None:
        if len(memo) > MAX_MEMO:
            memo.clear()
        found = memo[signature] = marker_accuracy(labels, markers, lexicon)
    return found


def answer_labels(labels: Sequence[Mapping[str, Any]]) -> Labels:
    """``(name, location_hint)`` of each named label of a response, in the model's order."""
    return tuple(
        (str(label.get("name", "")).strip(), label.get("location_hint"))
        for label in labels
        if label.get("name")
    )


def project_lexicon(project: Project, item_id: str | None = None) -> Lexicon:
    """The lexicon that scores ``item_id``: global rows plus that item's additions.

    The additions include its key's alternatives, as ``same`` rows of their names.
    """
    base = _lexicon(tuple(project.lexicon.rows()))
    item_rows = (
        ()
        if item_id is None
        else (*project.lexicon.rows(item_id), *alternative_rows(project.items.key(item_id)))
    )
    return _layered(base, item_rows) if item_rows else base


def score_cell(predicted_names: Sequence[str], key: Sequence[str], lexicon: Lexicon) -> NameScore:
    """One cell's score exactly as :func:`load_results` (and so the export) computes it.

    The ingredients are the response's predicted names, the item's
    :func:`key_names` and its :func:`project_lexicon`; a view that scores cells
    lazily (the review matrix) calls this so its numbers are the published ones.
    Scores are memoised per lexicon object: reopening the matrix rescores only
    what changed, and a lexicon edit gives a new lexicon object (its rows
    changed), so stale scores are never reused. The returned NameScore is
    shared and must not be mutated.
    """
    predicted, names = tuple(predicted_names), tuple(key)
    memo = _SCORES.get(lexicon)
    if memo is None:
        memo = _SCORES[lexicon] = {}
    found = memo.get((predicted, names))
    if found is None:
        if len(memo) > MAX_MEMO:
            memo.clear()
        found = memo[(predicted, names)] = score_names(predicted, names, lexicon)
    return found


def load_results(project: Project, item_ids: Iterable[str] | None = None) -> list[ScoredCell]:
    """Every cell with a response (its latest), scored; optionally only for ``item_ids``.

    Flags are computed per item from that item's counted cells. Cells that do
    not count (:func:`answer_counts`) are included, marked, for the views that
    show them; use :func:`counted_results` for numbers.
    """
    with collector_paused():
        return _load_results(project, item_ids)


def counted_results(project: Project, item_ids: Iterable[str] | None = None) -> list[ScoredCell]:
    """The cells that count (:func:`answer_counts`): every number shown or published uses these."""
    return [c for c in load_results(project, item_ids) if c.counts]


def _load_results(project: Project, item_ids: Iterable[str] | None) -> list[ScoredCell]:
    wanted = None if item_ids is None else set(item_ids)
    items = {i.id: i for i in project.items.list() if wanted is None or i.id in wanted}
    keys = project.items.keys()
    names = {i: key_names(keys.get(i, ())) for i in items}
    base = _lexicon(tuple(project.lexicon.rows()))
    additions = project.lexicon.item_rows()
    extra = {i: (*additions.get(i, ()), *alternative_rows(keys.get(i, ()))) for i in items}
    lexicons = {i: _layered(base, extra[i]) if extra[i] else base for i in items}
    markers = {i: key_markers(keys.get(i, ())) for i in items}
    public = project.public_ids.labels(project.id_prefix)
    scored: list[tuple[_Answer, Item, NameScore, bool]] = []
    for a in _latest_answers(project, items.keys()):
        item = items[a.item_id]
        score = score_cell(a.predicted_names, names[a.item_id], lexicons[a.item_id])
        scored.append((a, item, score, is_stale(a, item)))
    flags = item_flags(  # the card's flags read the card's four conditions only
        (a.item_id, a.condition, s.f1)
        for a, _, s, stale in scored
        if answer_counts(a.status, stale) and a.condition in CONDITIONS
    )
    unflagged = ItemFlags(unsolved_core=True, recitable=False)
    cells = []
    for a, item, s, stale in scored:
        f = flags.get(a.item_id, unflagged)
        marked = markers[a.item_id]
        cells.append(
            ScoredCell(
                item_id=a.item_id,
                public_id=public.get(a.item_id),
                model=a.model,
                condition=a.condition,
                status=a.status,
                origin=a.origin,
                response_id=a.id,
                parse_ok=a.parse_ok,
                predicted_names=a.predicted_names,
                key_names=names[a.item_id],
                subject=item.subject,
                tier=item.tier,
                score=s,
                unsolved_core=f.unsolved_core,
                recitable=f.recitable,
                stale=stale,
                markers=(
                    score_markers(answer_labels(a.labels), marked, lexicons[a.item_id])
                    if marked
                    else None
                ),
            )
        )
    return cells


def is_stale(answer: _Answer | Response, item: Item) -> bool:
    """Whether the answer was given for another subject or question image than the item's now.

    Answers recorded before the store kept this (``asked_subject`` NULL) count as current.
    """
    if answer.asked_subject is None:
        return False
    if answer.asked_subject != item.subject:
        return True
    return needs_image(answer.condition) and answer.asked_image != item.question_asset


def item_flags(cells: Iterable[tuple[str, str, float]]) -> dict[str, ItemFlags]:
    """Per-item flags from ``(item_id, condition, f1)`` of every counted cell.

    The rule itself is :func:`labeler.analysis.item_flags` (one definition for
    the GUI, the CLI report and the export). An item with no answered cell has
    no entry: nobody solved it and nobody recited it.
    """
    import pandas as pd

    from labeler.analysis import item_flags as frame_flags

    frame = pd.DataFrame(list(cells), columns=["item_id", "condition", "f1"])
    if frame.empty:
        return {}
    flags = frame_flags(frame)
    return {
        item_id: ItemFlags(unsolved_core=bool(unsolved), recitable=bool(recitable))
        for item_id, unsolved, recitable in zip(
            flags.index, flags["unsolved_core"], flags["recitable"], strict=True
        )
    }


def results_frame(cells: Sequence[ScoredCell]) -> pd.DataFrame:
    """The cells as a DataFrame with :data:`FRAME_COLUMNS` (``score`` holds the NameScore)."""
    import pandas as pd

    data = {}
    for column in FRAME_COLUMNS:
        get = operator.attrgetter(column)
        values = [get(c) for c in cells]
        data[column] = [list(v) for v in values] if column in _LIST_COLUMNS else values
    return pd.DataFrame(data, columns=list(FRAME_COLUMNS))


#: The frame's columns that hold name lists (tuples on the cell, lists in the frame).
_LIST_COLUMNS = frozenset({"predicted_names", "key_names"})


@dataclass(frozen=True, slots=True)
class _Answer:
    """What the matrix needs from one response (responses never change once stored)."""

    id: int
    item_id: str
    model: str
    condition: str
    status: str
    origin: str
    parse_ok: bool
    predicted_names: tuple[str, ...]
    labels: Sequence[Mapping[str, Any]]  # as stored; read only for items with markers
    asked_subject: str | None
    asked_image: str | None


#: Per project (keyed by its private salt, unique per project ever created): response id -> answer.
_ANSWERS: dict[str, dict[int, _Answer]] = {}
MAX_STALE_ANSWERS = 10_000


def _latest_answers(project: Project, item_ids: Iterable[str]) -> list[_Answer]:
    """The latest answer of every cell of ``item_ids``, oldest response first.

    Responses are append-only, so an answer read once is kept by id; one cheap
    grouping query finds each cell's latest id, and only items with a response
    not seen before are read through the store. That keeps reopening the review
    matrix from re-reading and re-parsing thousands of stored answers.
    """
    wanted = set(item_ids)
    token = project.get_meta("id_salt") or str(project.folder.resolve())
    memo = _ANSWERS.setdefault(token, {})
    latest = [(rid, item) for rid, item in project.responses.latest_ids() if item in wanted]
    stale = sorted({item for rid, item in latest if rid not in memo})
    fresh: dict[str, list[_Answer]] = {}
    for r in project.responses.latest(item_ids=stale) if stale else ():
        memo[r.id] = answer = _Answer(
            r.id,
            r.item_id,
            r.model,
            r.condition,
            r.status,
            r.origin,
            r.parse_ok,
            tuple(r.predicted_names),
            r.labels,
            r.asked_subject,
            r.asked_image,
        )
        fresh.setdefault(r.item_id, []).append(answer)
    # a response that arrived between the two queries: the store's read wins for its item
    out = [memo[rid] for rid, item in latest if item not in fresh]
    out += [a for answers in fresh.values() for a in answers]
    if len(memo) > 2 * len(latest) + MAX_STALE_ANSWERS:  # superseded answers pile up
        keep = {rid for rid, _ in latest}
        _ANSWERS[token] = {rid: a for rid, a in memo.items() if rid in keep}
    return sorted(out, key=lambda a: a.id)


_SCORES: weakref.WeakKeyDictionary[Lexicon, dict[tuple, NameScore]] = weakref.WeakKeyDictionary()
_MARKERS: weakref.WeakKeyDictionary[Lexicon, dict[tuple, MarkerScore]] = weakref.WeakKeyDictionary()
MAX_MEMO = 200_000


@functools.lru_cache(maxsize=8)
def _lexicon(global_rows: tuple) -> Lexicon:
    """The global lexicon, keyed by its rows: unchanged rows reuse one object and its memos."""
    return Lexicon.from_rows(global_rows)


@functools.lru_cache(maxsize=1024)
def _layered(base: Lexicon, item_rows: tuple) -> Lexicon:
    """An item's lexicon, keyed by the base object (hashed by identity) and its own rows."""
    return base.with_rows(item_rows)
