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

Scores are computed once and kept: every cell's result lives in the store's score
cache (``labeler/store/score_cache.py``) with the fingerprints of what it was computed
from — the rules version, the item's key, the lexicon components its names reach
(:mod:`labeler.scoring.fingerprint`). A call reads every latest answer's metadata with
its cached row in one query (never the raw answer text: :func:`cell_raw` reads that for
one opened cell), reuses the rows whose fingerprints are current, and scores only the
rest, storing them in one transaction. A lexicon edit therefore rescores exactly the
cells whose names it reaches (``docs/decisions/0019-score-cache.md``).

Views that show numbers but not names — Review's matrix, the Leaderboard, Curate's item
list — read :func:`cell_summaries` instead: the same cells and values as columns, taken
from the cache's own columns without decoding a result (decision 0019, "Read path"). The
export and ``labeler report`` read :func:`cell_columns`: the same columns plus the names a
published row carries, scanned from each cached result's leading fields.

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
import hashlib
import json
import operator
import threading
import weakref
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from labeler.lexicon import Lexicon
from labeler.prompts import CONDITIONS, needs_image
from labeler.review import effective_overrides
from labeler.scoring import (
    DEFAULT_RULES,
    MarkerScore,
    Match,
    NameScore,
    marker_accuracy,
    score_names,
    scoring_version,
)
from labeler.scoring.bulk import collector_paused
from labeler.scoring.fingerprint import ItemPrint, key_fingerprint, prints
from labeler.scoring.markers import read_letter
from labeler.status import ResponseStatus
from labeler.store import Item, KeyEntry, Project, Response
from labeler.store.records import alternative_rows
from labeler.store.score_cache import CachedScore, CellRow
from labeler.store.summaries import item_versions

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
    override: float | None = None  # a reviewer's score for this answer (labeler.review)

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
        """The F1 that counts: a reviewer's override of this answer, else the scorer's."""
        return self.score.f1 if self.override is None else self.override

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


def cell_raw(project: Project, response_id: int) -> str | None:
    """One answer's raw text, for a view that opens that cell (bulk reads never load it)."""
    return project.responses.raw_text(response_id)


def _load_results(project: Project, item_ids: Iterable[str] | None) -> list[ScoredCell]:
    wanted = None if item_ids is None else set(item_ids)
    items = {i.id: i for i in project.items.list() if wanted is None or i.id in wanted}
    scored = _scores(project, items)
    overrides = {rid: o.value for rid, o in effective_overrides(project).items()}
    flags = item_flags(  # the card's flags read the card's four conditions only
        (a.item_id, a.condition, overrides.get(a.id, s.score.f1))
        for a, s, stale in scored
        if answer_counts(a.status, stale) and a.condition in CONDITIONS
    )
    unflagged = ItemFlags(unsolved_core=True, recitable=False)
    public = project.public_ids.labels(project.id_prefix)
    cells = []
    for a, s, stale in scored:
        f = flags.get(a.item_id, unflagged)
        item = items[a.item_id]
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
                predicted_names=s.predicted_names,
                key_names=s.key_names,
                subject=item.subject,
                tier=item.tier,
                score=s.score,
                unsolved_core=f.unsolved_core,
                recitable=f.recitable,
                stale=stale,
                markers=s.markers,
                override=overrides.get(a.id),
            )
        )
    return cells


@dataclass(frozen=True, slots=True)
class LeftOut:
    """How many cells do not count (:func:`answer_counts`), by why."""

    unanswered: int  # no answer from the model (api_error)
    stale: int  # answered, for an older subject or question image


@dataclass(frozen=True)
class CellSummaries:
    """Every cell's latest answer as a view shows it, in columns (position ``i`` is one cell).

    What :func:`cell_summaries` returns: the cells of :func:`load_results`, in the same
    order (oldest answer first) with the same values, but only the fields a matrix, a
    leaderboard or an item list shows — no names, no matches, no per-cell objects. ``f1``
    is the F1 that counts (a reviewer's override, else the scorer's, as
    :attr:`ScoredCell.f1`); ``markers`` is the marker score of items whose key has named
    markers. The item-level tables hold what was read to build the columns. Decoded values
    (``markers``) are shared between calls and must not be mutated.
    """

    response_id: list[int]
    item_id: list[str]
    model: list[str]
    condition: list[str]
    status: list[str]
    parse_ok: list[bool]
    stale: list[bool]
    f1: list[float]
    precision: list[float]
    recall: list[float]
    marker_accuracy: list[float | None]
    markers: list[MarkerScore | None]
    override: list[float | None]
    items: dict[str, Item]  # the items read, by id
    keys: dict[str, list[KeyEntry]]  # every item's answer key, by id
    public_ids: dict[str, str]  # item id -> published ``PREFIX-N``, numbered items only
    overrides: dict[int, float]  # response id -> reviewer's F1, every override in force

    def __len__(self) -> int:
        return len(self.response_id)

    @functools.cached_property
    def counts(self) -> list[bool]:
        """Per cell, whether its answer counts (:func:`answer_counts`); worked out once."""
        return [answer_counts(s, t) for s, t in zip(self.status, self.stale, strict=True)]

    def left_out(self) -> LeftOut:
        """The cells that do not count, by why (the export's report and its card say so)."""
        answered = [s not in NO_ANSWER_STATUSES for s in self.status]
        return LeftOut(
            unanswered=answered.count(False),
            stale=sum(a and t for a, t in zip(answered, self.stale, strict=True)),
        )

    def flags(self) -> dict[str, ItemFlags]:
        """The card's per-item flags, exactly as :func:`load_results` sets them on its cells."""
        return item_flags(
            (i, c, f)
            for i, c, f, n in zip(self.item_id, self.condition, self.f1, self.counts, strict=True)
            if n and c in CONDITIONS
        )

    def frame(self, conditions: Collection[str] | None = None) -> pd.DataFrame:
        """The counted cells (under ``conditions``, default all) as a frame for
        :mod:`labeler.analysis`: ``item_id, model, condition, f1, marker_accuracy`` — the
        same values as those columns of :func:`results_frame` over :func:`counted_results`.
        """
        import pandas as pd

        keep = [
            i
            for i, (n, c) in enumerate(zip(self.counts, self.condition, strict=True))
            if n and (conditions is None or c in conditions)
        ]
        columns = ("item_id", "model", "condition", "f1", "marker_accuracy")
        data = {name: _pick(getattr(self, name), keep) for name in columns}
        return pd.DataFrame(data, columns=list(columns))


#: The per-cell columns of :class:`CellSummaries`, in its order.
_SUMMARY_FIELDS = (
    "response_id", "item_id", "model", "condition", "status", "parse_ok", "stale", "f1",
    "precision", "recall", "marker_accuracy", "markers", "override",
)  # fmt: skip


def _pick(values: Sequence[Any], positions: Sequence[int]) -> list[Any]:
    return [values[k] for k in positions]


@dataclass(frozen=True)
class CellColumns(CellSummaries):
    """:class:`CellSummaries` plus the names a published row carries (:func:`cell_columns`).

    ``predicted_names``, ``n_pred`` and ``n_key`` are per cell, as on :class:`ScoredCell`;
    ``key_names`` is per item (every cell of an item is scored against the same key).
    The name tuples are shared between calls and must not be mutated.
    """

    predicted_names: list[tuple[str, ...]]
    n_pred: list[int]
    n_key: list[int]
    key_names: dict[str, tuple[str, ...]]  # item id -> its key's names


#: The per-cell columns :class:`CellColumns` adds, in its order.
_NAME_FIELDS = ("predicted_names", "n_pred", "n_key")


def cell_summaries(project: Project, item_ids: Iterable[str] | None = None) -> CellSummaries:
    """Every cell's latest answer with the numbers views show, read from the score cache.

    The summary-only read path: one query returns, per cell, its answer's metadata and
    the cached F1, precision, recall and marker score as columns (no result JSON, no
    labels, no raw text), and a cached row is taken when its key fingerprint and lexicon
    state equal the item's current ones — one comparison per cell against per-item values
    computed once. The rest (nothing cached, an edited key or lexicon, rows from before
    the columns) go through :func:`load_results`'s own resolution, which re-checks,
    rescores and stores them, so the values are always :func:`load_results`'s
    (``tests/results/test_cell_summaries.py`` compares the two). Review's matrix, the
    Leaderboard's table and Curate's item list read this; the export and ``labeler
    report``, which publish names, read :func:`cell_columns`.
    """
    with collector_paused():
        return _cell_summaries(project, item_ids, names=False)


def cell_columns(project: Project, item_ids: Iterable[str] | None = None) -> CellColumns:
    """:func:`cell_summaries` with each cell's predicted names and class counts as well.

    What the export and ``labeler report`` read: every field of a published row, as
    columns, from the same query, validity check, memo, overrides and flags as the
    summaries (one set of rules), the names taken from each valid cached result's JSON
    (one parse per cell, no :class:`ScoredCell` or match objects).
    """
    with collector_paused():
        found = _cell_summaries(project, item_ids, names=True)
    assert isinstance(found, CellColumns)  # names=True builds (or finds) the columns
    return found


def _cell_summaries(
    project: Project, item_ids: Iterable[str] | None, *, names: bool
) -> CellSummaries:
    with _READING:  # a view opened alongside waits for this read, then takes its memo
        return _read_summaries(project, item_ids, names=names)


def _read_summaries(
    project: Project, item_ids: Iterable[str] | None, *, names: bool
) -> CellSummaries:
    wanted = None if item_ids is None else set(item_ids)
    version = scoring_version(DEFAULT_RULES)
    overrides = {rid: o.value for rid, o in effective_overrides(project).items()}
    public = project.public_ids.labels(project.id_prefix)
    # everything the columns, items and keys are a function of: answers never change once
    # stored, and an item's version moves with every write of it or its key, so with the
    # lexicon's rows the versions stand for the items, their key fingerprints and lexicon
    # states, which cost more to read and compute than these to compare
    signature = (
        version,
        None if wanted is None else frozenset(wanted),
        project.score_cache.answers_stamp(),
        item_versions(project),
        project.lexicon.rows(),
        project.lexicon.item_rows(),
        overrides,
        public,
    )
    memo = _SUMMARIES.get(str(project.folder))
    want = CellColumns if names else CellSummaries  # columns serve a summaries read too
    if memo is not None and memo[0] == signature and isinstance(memo[1], want):
        return memo[1]  # shared, as every decoded value is: never mutated
    items = {i.id: i for i in project.items.list() if wanted is None or i.id in wanted}
    keys = project.items.keys()
    context = _Context(project, set(items), keys)
    current = {i: (fp, context.item_print(i).state) for i, fp in context.key_fps.items()}
    rows = project.score_cache.summary_rows(version, with_result=names)  # oldest first
    if wanted is not None:
        rows = [r for r in rows if r[1] in items]
    # a cached row is taken as it is when complete and made under the item's current key
    # fingerprint and lexicon state; the rest go through load_results' own resolution
    read = list(zip(*rows, strict=True))  # by column: no statements per cell
    trusted = (
        [
            precision is not None and (key_fp, state) == current[item_id]
            for item_id, key_fp, state, precision in zip(
                read[1], read[8], read[9], read[11], strict=True
            )
        ]
        if rows
        else []
    )
    pending = [r[0] for r, ok in zip(rows, trusted, strict=True) if not ok]
    if pending:
        read = list(zip(*(r for r, ok in zip(rows, trusted, strict=True) if ok), strict=True))
    columns = _trusted_columns(read, items, overrides, names=names)
    if pending:
        resolved = project.score_cache.cells(version, pending)
        results = _resolve(project, version, context, resolved)
        more = []
        for c in resolved:
            r, override = results[c.id], overrides.get(c.id)
            cell = (
                c.id, c.item_id, c.model, c.condition, c.status, c.parse_ok,
                is_stale(c, items[c.item_id]), r.score.f1 if override is None else override,
                r.score.precision, r.score.recall,
                None if r.markers is None else r.markers.accuracy, r.markers, override,
            )  # fmt: skip
            published = (r.predicted_names, r.score.n_pred, r.score.n_key)
            more.append((*cell, *published) if names else cell)
        merged = sorted([*zip(*columns, strict=True), *more], key=operator.itemgetter(0))
        columns = [list(c) for c in zip(*merged, strict=True)]
    fields = (*_SUMMARY_FIELDS, *_NAME_FIELDS) if names else _SUMMARY_FIELDS
    found: CellSummaries
    common: dict[str, Any] = dict(items=items, keys=keys, public_ids=public, overrides=overrides)
    data: dict[str, Any] = dict(zip(fields, columns, strict=True))
    if names:
        found = CellColumns(**data, **common, key_names=context.names)
    else:
        found = CellSummaries(**data, **common)
    _SUMMARIES.clear()  # one project's: a window has one open
    _SUMMARIES[str(project.folder)] = (signature, found)
    return found


def _trusted_columns(
    read: Sequence[Sequence[Any]],
    items: Mapping[str, Item],
    overrides: Mapping[int, float],
    *,
    names: bool,
) -> list[list[Any]]:
    """The columns of :data:`_SUMMARY_FIELDS` (and :data:`_NAME_FIELDS` with ``names``),
    in their order, from the columns of trusted ``summary_rows`` (empty: no rows).

    Built a column at a time (one comprehension each, values shared through small memos)
    rather than a tuple per cell: at 100k cells the per-cell statements cost as much as
    the query.
    """
    if not read:
        return [[] for _ in range(len(_SUMMARY_FIELDS) + (len(_NAME_FIELDS) if names else 0))]
    rid, item_id, model, condition, status, parse_ok, subject, image, *cached = map(list, read)
    _, _, f1, precision, recall, accuracy, markers_json, *result = cached
    stale_memo: dict[tuple[str | None, str | None, str, str], bool] = {}

    def stale(key: tuple[str | None, str | None, str, str]) -> bool:
        found = stale_memo.get(key)
        if found is None:
            found = stale_memo[key] = _stale(*key[:3], items[key[3]])
        return found

    markers_memo: dict[str, MarkerScore] = {}

    def marker_score(text: str) -> MarkerScore:
        found = markers_memo.get(text)
        if found is None:
            found = markers_memo[text] = MarkerScore(*json.loads(text))
        return found

    override: list[float | None] = [overrides.get(r) for r in rid] if overrides else []
    columns = [
        rid, item_id, model, condition, status, [bool(p) for p in parse_ok],
        [stale(k) for k in zip(subject, image, condition, item_id, strict=True)],
        [f if o is None else o for f, o in zip(f1, override, strict=True)] if overrides else f1,
        precision, recall, accuracy,
        [None if m is None else marker_score(m) for m in markers_json],
        override or [None] * len(rid),
    ]  # fmt: skip
    if names:
        columns.extend(map(list, zip(*map(_published, result[0]), strict=True)))
    return columns


def _published(result_json: str) -> tuple[tuple[str, ...], int, int]:
    """``(predicted names, n_pred, n_key)`` of a cached result (:func:`_encode`'s ``p``, ``s``).

    :func:`_encode` writes ``p``, ``e`` and ``s`` first, compactly: those three values are
    scanned and the matches after them (most of the text) are never parsed. Text in any
    other layout is parsed whole.
    """
    if result_json.startswith('{"p":'):
        predicted, end = _SCAN(result_json, 5)
        if result_json.startswith(',"e":', end):
            end = _SCAN(result_json, end + 5)[1]
            if result_json.startswith(',"s":', end):
                score = _SCAN(result_json, end + 5)[0]
                return tuple(predicted), score[3], score[4]
    data = json.loads(result_json)
    return tuple(data["p"]), data["s"][3], data["s"][4]


#: One JSON value from a position of a text (what :func:`_published` scans with).
_SCAN = json.JSONDecoder().raw_decode


@dataclass(frozen=True, slots=True)
class _Result:
    """One answer's scored result: what the score cache keeps (see :func:`_encode`)."""

    predicted_names: tuple[str, ...]
    key_names: tuple[str, ...]
    score: NameScore
    markers: MarkerScore | None
    extra_names: tuple[str, ...]  # marker answers' names beyond the predicted ones


def _scores(project: Project, items: Mapping[str, Item]) -> list[tuple[CellRow, _Result, bool]]:
    """Every latest answer of ``items`` with its result: cached where still valid, else scored.

    A cached result is valid when its rules version, key fingerprint and lexicon
    fingerprint (:mod:`labeler.scoring.fingerprint`) equal the current ones; the
    rest are scored here and stored in one transaction. Raw answer text is never read,
    and a cached cell's labels are not either: one JSON parse per cell.
    """
    version = scoring_version(DEFAULT_RULES)
    rows = [c for c in project.score_cache.latest_cells(version) if c.item_id in items]
    context = _Context(project, {c.item_id for c in rows})
    results = _resolve(project, version, context, rows)
    return [(c, results[c.id], is_stale(c, items[c.item_id])) for c in rows]


def _resolve(
    project: Project, version: str, context: _Context, rows: Sequence[CellRow]
) -> dict[int, _Result]:
    """Each cell's result by response id: its cached row where still valid, else scored.

    Valid rows checked under a new lexicon state are confirmed, valid rows from before
    the summary columns stored again in full, and fresh scores stored, in one pass each.
    """
    out: dict[int, _Result] = {}
    misses: list[CellRow] = []
    stored: list[CachedScore] = []
    for c in rows:
        result = context.cached(c)
        if result is None:
            misses.append(c)
        else:
            out[c.id] = result
            if not c.complete:
                stored.append(context.entry(c, result))
    project.score_cache.confirm(version, context.confirmed)
    labels = dict(project.score_cache.labels_json([c.id for c in misses]))
    for c in misses:
        result = out[c.id] = context.score(c.item_id, json.loads(labels[c.id]))
        entry = context.entry(c, result)
        stored.append(entry)
        _decoded(entry.result_json, result.key_names)  # the next read finds it decoded
    if stored:
        project.score_cache.put_many(version, stored)
    return out


class ItemLexicons:
    """The global lexicon and every item's layered one, read from the store once.

    :func:`project_lexicon` reads the store per call; a pass over many items (the
    export, :func:`load_results`) builds one of these instead.
    """

    def __init__(self, project: Project, keys: Mapping[str, Sequence[KeyEntry]]) -> None:
        self.base = _lexicon(tuple(project.lexicon.rows()))
        self._additions = project.lexicon.item_rows()
        self._keys = keys

    def extra(self, item_id: str) -> tuple[tuple[str, str, str], ...]:
        """The item's own rows: its additions and its key's alternatives."""
        return (
            *self._additions.get(item_id, ()),
            *alternative_rows(self._keys.get(item_id, ())),
        )

    def lexicon(self, item_id: str) -> Lexicon:
        """The lexicon that scores ``item_id`` (as :func:`project_lexicon`)."""
        extra = self.extra(item_id)
        return _layered(self.base, extra) if extra else self.base


class _Context:
    """What scoring the cells of some items needs, built once per :func:`load_results` call.

    Per-item lexicons are layered only for items that have a cell to score.
    """

    def __init__(
        self,
        project: Project,
        item_ids: set[str],
        keys: Mapping[str, Sequence[KeyEntry]] | None = None,
    ) -> None:
        keys = project.items.keys() if keys is None else keys
        self.keys = {i: keys.get(i, []) for i in item_ids}
        self.names = {i: key_names(k) for i, k in self.keys.items()}
        self.markers = {i: key_markers(k) for i, k in self.keys.items()}
        self.key_fps = {
            i: key_fingerprint([(e.name, e.marker, e.alternatives) for e in k])
            for i, k in self.keys.items()
        }
        self.lexicons = ItemLexicons(project, self.keys)
        self.extra = {i: self.lexicons.extra(i) for i in self.keys}
        self.prints = prints(self.lexicons.base)
        self._items: dict[str, ItemPrint] = {}
        #: ``(lexicon state, response id)`` of cached cells re-checked valid under a new state
        self.confirmed: list[tuple[str, int]] = []

    def item_print(self, item_id: str) -> ItemPrint:
        found = self._items.get(item_id)
        if found is None:
            found = self._items[item_id] = self.prints.item(
                self.extra[item_id], self.names[item_id]
            )
        return found

    def lexicon(self, item_id: str) -> Lexicon:
        return self.lexicons.lexicon(item_id)

    def cached(self, cell: CellRow) -> _Result | None:
        """The cell's cached result if its fingerprints are the current ones, else None."""
        if cell.result_json is None or cell.key_fp != self.key_fps[cell.item_id]:
            return None
        result = _decoded(cell.result_json, self.names[cell.item_id])
        item = self.item_print(cell.item_id)
        if cell.lexicon_state != item.state:  # the lexicon changed: did it touch this cell?
            names = (*result.predicted_names, *result.extra_names)
            if self.prints.cell(item, names) != cell.lexicon_fp:
                return None
            self.confirmed.append((item.state, cell.id))
        return result

    def score(self, item_id: str, labels: Sequence[Mapping[str, Any]]) -> _Result:
        """Score one answer's stored labels (what every number is computed from)."""
        predicted = tuple(
            str(label.get("name", "")).strip() for label in labels if label.get("name")
        )
        lexicon = self.lexicon(item_id)
        score = score_cell(predicted, self.names[item_id], lexicon)
        marked = self.markers[item_id]
        markers: MarkerScore | None = None
        extra: tuple[str, ...] = ()
        if marked:
            given = answer_labels(labels)
            markers = score_markers(given, marked, lexicon)
            seen = set(predicted)
            extra = tuple(
                dict.fromkeys(
                    n for n in (read_letter(name, hint)[1] for name, hint in given) if n not in seen
                )
            )
        return _Result(predicted, self.names[item_id], score, markers, extra)

    def entry(self, cell: CellRow, result: _Result) -> CachedScore:
        names = (*result.predicted_names, *result.extra_names)
        item = self.item_print(cell.item_id)
        return CachedScore(
            response_id=cell.id,
            key_fp=self.key_fps[cell.item_id],
            lexicon_fp=self.prints.cell(item, names),
            lexicon_state=item.state,
            f1=result.score.f1,
            marker_accuracy=None if result.markers is None else result.markers.accuracy,
            result_json=_encode(result),
            precision=result.score.precision,
            recall=result.score.recall,
            markers_json=None if result.markers is None else _dumps(_marker_fields(result.markers)),
        )


def _encode(result: _Result) -> str:
    """Compact JSON of a result (the key names are the item's: not repeated per cell)."""
    s, m = result.score, result.markers
    data = {
        "p": result.predicted_names,
        "e": result.extra_names,
        "s": [s.f1, s.precision, s.recall, s.n_pred, s.n_key],
        "m": [list(match) for match in s.matches],
        "u": s.unmatched_pred,
        "x": s.missed_key,
        "k": None if m is None else _marker_fields(m),
    }
    return _dumps(data)


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _marker_fields(m: MarkerScore) -> list[Any]:
    """A marker score as the cache keeps it (``k`` of a result, the ``markers_json`` column)."""
    return [m.accuracy, m.n_markers, m.correct, m.wrong, m.unanswered]


def _decoded(result_json: str, key: tuple[str, ...]) -> _Result:
    """The cached result ``result_json`` decoded, memoised on its digest and the key names.

    Every view re-reads all cells (Curate's scores, Review, the Leaderboard, again
    after a run), and parsing and rebuilding 100k results is most of a warm read;
    the same JSON with the same key is the same result, so a later read reuses it.
    The result is shared and must not be mutated (as :func:`score_cell`'s).
    """
    signature = (hashlib.blake2b(result_json.encode(), digest_size=16).digest(), key)
    found = _DECODED.get(signature)
    if found is None:
        if len(_DECODED) > MAX_MEMO:
            _DECODED.clear()
        found = _DECODED[signature] = _decode(json.loads(result_json), key)
    return found


def _decode(data: dict[str, Any], key: tuple[str, ...]) -> _Result:
    f1, precision, recall, n_pred, n_key = data["s"]
    score = NameScore(
        f1, precision, recall, n_pred, n_key,
        [Match(*match) for match in data["m"]], data["u"], data["x"],
    )  # fmt: skip
    k = data["k"]
    markers = None if k is None else MarkerScore(k[0], k[1], k[2], k[3], k[4])
    return _Result(tuple(data["p"]), key, score, markers, tuple(data["e"]))


def is_stale(answer: CellRow | Response, item: Item) -> bool:
    """Whether the answer was given for another subject or question image than the item's now.

    Answers recorded before the store kept this (``asked_subject`` NULL) count as current.
    """
    return _stale(answer.asked_subject, answer.asked_image, answer.condition, item)


def _stale(subject: str | None, image: str | None, condition: str, item: Item) -> bool:
    """:func:`is_stale` on the answer's columns."""
    if subject is None:
        return False
    if subject != item.subject:
        return True
    return needs_image(condition) and image != item.question_asset


def item_flags(cells: Iterable[tuple[str, str, float]]) -> dict[str, ItemFlags]:
    """Per-item flags from ``(item_id, condition, f1)`` of every counted cell.

    The rule itself is :func:`labeler.analysis.item_flags` (one definition for
    the GUI, the CLI report and the export). An item with no answered cell has
    no entry: nobody solved it and nobody recited it.
    """
    import pandas as pd

    from labeler.analysis import item_flags as frame_flags

    with collector_paused():  # the caller's generator may read 100k cells: no collections
        rows = list(cells)
        if not rows:
            return {}
        item_ids, conditions, f1s = zip(*rows, strict=True)  # columns, not a row per cell
        frame = pd.DataFrame({"item_id": item_ids, "condition": conditions, "f1": f1s})
        flags = frame_flags(frame)
    return {
        item_id: ItemFlags(unsolved_core=bool(unsolved), recitable=bool(recitable))
        for item_id, unsolved, recitable in zip(
            flags.index, flags["unsolved_core"], flags["recitable"], strict=True
        )
    }


def results_frame(cells: Sequence[ScoredCell]) -> pd.DataFrame:
    """The cells as a DataFrame with :data:`FRAME_COLUMNS` (``score`` holds the NameScore).

    One pass reads every column of a cell at once, and the collector is held
    while the name lists are copied (two new lists per cell: at 100k cells the
    collections they trigger, re-walking every live cell, cost more than the copy).
    """
    import pandas as pd

    if not cells:
        return pd.DataFrame({column: [] for column in FRAME_COLUMNS}, columns=list(FRAME_COLUMNS))
    with collector_paused():
        columns = list(zip(*map(_ROW, cells), strict=True))
        data = {
            name: [list(v) for v in values] if name in _LIST_COLUMNS else list(values)
            for name, values in zip(FRAME_COLUMNS, columns, strict=True)
        }
        return pd.DataFrame(data, columns=list(FRAME_COLUMNS))


#: The frame's columns that hold name lists (tuples on the cell, lists in the frame).
_LIST_COLUMNS = frozenset({"predicted_names", "key_names"})
#: A cell's frame row, every column in one call.
_ROW = operator.attrgetter(*FRAME_COLUMNS)


_SCORES: weakref.WeakKeyDictionary[Lexicon, dict[tuple, NameScore]] = weakref.WeakKeyDictionary()
_MARKERS: weakref.WeakKeyDictionary[Lexicon, dict[tuple, MarkerScore]] = weakref.WeakKeyDictionary()
_DECODED: dict[tuple[bytes, tuple[str, ...]], _Result] = {}
#: The last :func:`cell_summaries` of a project folder with everything it was read from:
#: Curate's list, Review and the Leaderboard each read the same cells after a change.
_SUMMARIES: dict[str, tuple[tuple[Any, ...], CellSummaries]] = {}
#: Held while :func:`cell_summaries` or :func:`cell_columns` reads: views that open together
#: (Curate's list and Review, on their own workers) would otherwise both read every cell.
_READING = threading.RLock()
MAX_MEMO = 200_000


@functools.lru_cache(maxsize=8)
def _lexicon(global_rows: tuple) -> Lexicon:
    """The global lexicon, keyed by its rows: unchanged rows reuse one object and its memos."""
    return Lexicon.from_rows(global_rows)


@functools.lru_cache(maxsize=1024)
def _layered(base: Lexicon, item_rows: tuple) -> Lexicon:
    """An item's lexicon, keyed by the base object (hashed by identity) and its own rows."""
    return base.with_rows(item_rows)
