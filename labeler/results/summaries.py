"""The read path of views and the export: every cell's numbers as columns, no objects.

Views that show numbers but not names — Review's matrix, the Leaderboard, Curate's item
list — read :func:`cell_summaries`: the cells and values of
:func:`labeler.results.load_results` as columns, taken from the score cache's own columns
without decoding a result (decision 0019, "Read path"). The export and ``labeler report``
read :func:`cell_columns`: the same columns plus the names a published row carries,
scanned from each cached result's leading fields.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from labeler.prompts import CONDITIONS
from labeler.results import summary_file
from labeler.results.cache import _Context, _resolve
from labeler.results.cell_scoring import key_names
from labeler.results.counts import NO_ANSWER_STATUSES, _stale, answer_counts, is_stale
from labeler.results.flags import ItemFlags, item_flags
from labeler.review import effective_overrides
from labeler.scoring import DEFAULT_RULES, MarkerScore, scoring_version
from labeler.scoring.bulk import collector_paused
from labeler.store import Item, KeyEntry, Project
from labeler.store.summaries import item_versions

if TYPE_CHECKING:
    import pandas as pd


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


def _fields(names: bool) -> tuple[str, ...]:
    """The per-cell columns of a read, with or without the names, in their order."""
    return (*_SUMMARY_FIELDS, *_NAME_FIELDS) if names else _SUMMARY_FIELDS


class _Basis(NamedTuple):
    """What a cell's columns are a function of besides its answer (the read's key)."""

    version: str  # the scoring rules'
    versions: list[tuple[str, int]]  # every item's (moves with each write of it or its key)
    lexicon_rows: list[tuple[str, str, str]]
    item_rows: dict[str, list[tuple[str, str, str]]]  # the items' own lexicon rows
    overrides: dict[int, float]  # response id -> a reviewer's F1


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
    versions = item_versions(project)
    if wanted is not None and wanted.issuperset(i for i, _ in versions):
        wanted = None  # every item: the same read as no filter, and kept as one (an export)
    version = scoring_version(DEFAULT_RULES)
    overrides = {rid: o.value for rid, o in effective_overrides(project).items()}
    public = project.public_ids.labels(project.id_prefix)
    # everything but the answers that the columns are a function of: an item's version
    # moves with every write of it or its key, so with the lexicon's rows the versions stand
    # for the items, their key fingerprints and lexicon states, which cost more to read and
    # compute than these to compare. Answers are only ever added (a response goes only with
    # its item), so columns read under an older stamp and this basis are brought up to date
    # by their cells' newer answers alone (:func:`_brought_up_to_date`).
    basis = _Basis(
        version, versions, project.lexicon.rows(), project.lexicon.item_rows(), overrides
    )
    stamp = project.score_cache.answers_stamp()
    # the published numbers are the memo's, not the columns': an export numbers new items,
    # and the columns it kept must serve the next process all the same
    signature = (basis, stamp, None if wanted is None else frozenset(wanted), public)
    memo = _SUMMARIES.get(str(project.folder))
    want = CellColumns if names else CellSummaries  # columns serve a summaries read too
    if memo is not None and memo[0] == signature and isinstance(memo[1], want):
        return memo[1]  # shared, as every decoded value is: never mutated
    every = {i.id: i for i in project.items.list()}
    items = every if wanted is None else {i: every[i] for i in every if i in wanted}
    keys = project.items.keys()
    common: dict[str, Any] = dict(items=items, keys=keys, public_ids=public, overrides=overrides)
    fields = _fields(names)
    # the kept columns are every item's (a filtered read takes its items' cells from them):
    # this process's last whole read, else the file another process (or this one) wrote
    on_disk, key = summary_file.path_in(project.folder), summary_file.digest(basis)
    whole: dict[str, list[Any]] | None = None
    disk: tuple[int, int] | None = None  # the stamp the file holds, as far as this process knows
    if (
        memo is not None
        and memo[0][0] == basis
        and memo[0][2] is None
        and isinstance(memo[1], want)
    ):
        whole, since = {f: getattr(memo[1], f) for f in fields}, memo[0][1]
        disk = memo[2]
    elif (kept := summary_file.load(on_disk, key, fields)) is not None:
        since, whole = kept
        disk = since
    if whole is not None and since != stamp:
        newer = _brought_up_to_date(project, whole, since, stamp, every, keys, basis, names=names)
        if newer is not None and _worth_rewriting(disk, stamp, len(newer["response_id"])):
            disk = stamp if summary_file.save(on_disk, key, stamp, newer) else disk
        whole = newer
    if whole is not None:
        cut = whole if wanted is None else _only_items(whole, items)
        made: dict[str, Any] = {**cut, **common}
        if names:
            made["key_names"] = {i: key_names(k) for i, k in keys.items()}
        return _remember(
            project, signature, (CellColumns if names else CellSummaries)(**made), disk
        )
    rows = project.score_cache.summary_rows(version, with_result=names)  # oldest first
    if wanted is not None:
        rows = [r for r in rows if r[1] in items]
    context = _Context(project, set(items), keys)
    columns = _built_columns(project, rows, context, items, basis, names=names)
    found: CellSummaries
    data: dict[str, Any] = dict(zip(fields, columns, strict=True))
    if names:
        found = CellColumns(**data, **common, key_names=context.names)
    else:
        found = CellSummaries(**data, **common)
    if wanted is None and summary_file.save(on_disk, key, stamp, data):
        disk = stamp
    return _remember(project, signature, found, disk)


def _worth_rewriting(disk: tuple[int, int] | None, stamp: tuple[int, int], cells: int) -> bool:
    """Whether columns brought up to ``stamp`` should replace the file's (stamped ``disk``).

    Rewriting costs about as much as reading the whole file (0.5-0.8 s at 100k cells), while
    bringing it up to date again costs the next process a read of the newer answers alone;
    so the file is rewritten once the answers it lacks reach :data:`REWRITE_SHARE` of its
    cells (or when this process does not know what it holds), not after every run.
    """
    return disk is None or (stamp[0] - disk[0]) >= REWRITE_SHARE * cells


def _brought_up_to_date(
    project: Project,
    whole: dict[str, list[Any]],
    since: tuple[int, int],
    stamp: tuple[int, int],
    items: Mapping[str, Item],
    keys: Mapping[str, list[KeyEntry]],
    basis: _Basis,
    *,
    names: bool,
) -> dict[str, list[Any]] | None:
    """Every item's columns read when the answers stamp was ``since``, brought to ``stamp``
    by the answers stored in between; None when anything else happened to the answers.

    What a run adds is a few hundred answers to a project of 100k: their cells replace
    the ones they answer anew and join at the end (a newer answer has a larger id, and
    the columns are in id order), and only they are read and judged, where a rebuild
    reads and judges every cell (≈2 s at 100k). The answers in between must be exactly
    the ones added: a count that moved by anything else (an answer stored with an id
    below the newest seen, as two writers of a team store may commit out of order) means
    a rebuild.
    """
    (count, newest), (count_now, _) = since, stamp
    if count_now - count != project.score_cache.answers_after(newest):
        return None
    rows = project.score_cache.summary_rows(basis.version, with_result=names, after=newest)
    context = _Context(project, {r[1] for r in rows}, keys)
    added = _built_columns(project, rows, context, items, basis, names=names)
    answered = set(zip(added[1], added[2], added[3], strict=True))  # item, model, condition
    cells = zip(whole["item_id"], whole["model"], whole["condition"], strict=True)
    keep = [k for k, cell in enumerate(cells) if cell not in answered]
    return {
        name: [*_pick(whole[name], keep), *more]
        for name, more in zip(_fields(names), added, strict=True)
    }


def _built_columns(
    project: Project,
    rows: Sequence[Sequence[Any]],
    context: _Context,
    items: Mapping[str, Item],
    basis: _Basis,
    *,
    names: bool,
) -> list[list[Any]]:
    """The columns of ``summary_rows`` ``rows`` (oldest first), in the fields' order.

    A cached row is taken as it is when complete and made under its item's current key
    fingerprint and lexicon state; the rest go through :func:`load_results`' own
    resolution, which re-checks, rescores and stores them.
    """
    version, overrides = basis.version, basis.overrides
    current = {i: (fp, context.item_state(i)) for i, fp in context.key_fps.items()}
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
    if not pending:
        return columns
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
    return [list(c) for c in zip(*merged, strict=True)]


def _only_items(columns: dict[str, list[Any]], items: Collection[str]) -> dict[str, list[Any]]:
    """``columns`` cut to the cells of ``items``, in their order (as a filtered read has them)."""
    keep = [k for k, item_id in enumerate(columns["item_id"]) if item_id in items]
    return {name: _pick(values, keep) for name, values in columns.items()}


def _remember(
    project: Project,
    signature: tuple[Any, ...],
    found: CellSummaries,
    disk: tuple[int, int] | None,
) -> CellSummaries:
    _SUMMARIES.clear()  # one project's: a window has one open
    _SUMMARIES[str(project.folder)] = (signature, found, disk)
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
        columns.extend(_published_columns(result[0]))
    return columns


def _published_columns(results: Sequence[str]) -> list[list[Any]]:
    """The columns ``predicted names, n_pred, n_key`` of cached results, a parse per batch.

    :func:`_encode` writes ``p``, ``e`` and ``s`` first and the matches (``m``, most of the
    text) next: each result is cut before its ``,"m":`` (which no string inside those three
    can hold: a quote in a string is escaped) and a batch of heads is parsed as one JSON
    array, a C-level pass instead of three scans per cell; batches keep the joined text a
    few megabytes. A batch with a result in any other layout, or heads that do not parse,
    is read one result at a time (:func:`_published`).
    """
    columns: list[list[Any]] = [[], [], []]
    for start in range(0, len(results), _HEADS_PER_PARSE):
        part = results[start : start + _HEADS_PER_PARSE]
        found = _heads(part) or list(map(list, zip(*map(_published, part), strict=True)))
        for column, values in zip(columns, found, strict=True):
            column += values
    return columns


def _heads(results: Sequence[str]) -> list[list[Any]] | None:
    """:func:`_published_columns` of one batch from one parse; None if a head is not
    :func:`_encode`'s."""
    heads = [text[: text.find(',"m":')] for text in results]
    if not all(map(str.startswith, heads, itertools.repeat('{"p":['))):
        return None
    try:
        parsed = json.loads("[" + "},".join(heads) + "}]")
    except ValueError:
        return None
    if len(parsed) != len(heads) or not all(map(_HEAD_KEYS.__eq__, map(tuple, parsed))):
        return None
    return [
        [tuple(head["p"]) for head in parsed],
        [head["s"][3] for head in parsed],
        [head["s"][4] for head in parsed],
    ]


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


#: The fields of a result's head, in :func:`_encode`'s order.
_HEAD_KEYS = ("p", "e", "s")
#: Results whose heads are parsed at a time: a few megabytes of text.
_HEADS_PER_PARSE = 10_000
#: One JSON value from a position of a text (what :func:`_published` scans with).
_SCAN = json.JSONDecoder().raw_decode
#: The last :func:`cell_summaries` of a project folder with everything it was read from, and
#: the answers stamp of the columns its kept file holds (None: not known to this process):
#: Curate's list, Review and the Leaderboard each read the same cells after a change.
_SUMMARIES: dict[str, tuple[tuple[Any, ...], CellSummaries, tuple[int, int] | None]] = {}
#: The share of its cells a kept file may lack in newer answers before it is rewritten: at 100k
#: cells, 5,000 answers, whose read costs the next process less than the rewrite (about 0.3 s
#: against 0.8 s in ``labeler export`` after a 400-answer run, bench/export.py).
REWRITE_SHARE = 0.05
#: Held while :func:`cell_summaries` or :func:`cell_columns` reads: two readers on their own
#: threads (a view's worker and the export's) would otherwise each read every cell; the
#: second waits and takes the first's memo.
_READING = threading.RLock()
