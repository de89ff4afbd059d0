"""The score cache's validity and resolution: reuse a cell's stored result, or score it.

Every cell's result lives in the store's score cache (``labeler/store/score_cache.py``)
with the fingerprints of what it was computed from — the rules version, the item's key,
the lexicon components its names reach (:mod:`labeler.scoring.fingerprint`). A cached row
is valid when those equal the current ones (:meth:`_Context.cached`); the rest are scored
(:meth:`_Context.score`) and stored in one transaction (:func:`_resolve`). A lexicon edit
therefore rescores exactly the cells whose names it reaches
(``docs/decisions/0019-score-cache.md``). Results are kept as compact JSON
(:func:`_encode`) and decoded once per distinct text (:func:`_decoded`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.lexicon import Lexicon
from labeler.results.cell_scoring import (
    MAX_MEMO,
    ItemLexicons,
    answer_labels,
    key_markers,
    key_names,
    score_cell,
    score_markers,
)
from labeler.results.counts import is_stale
from labeler.scoring import DEFAULT_RULES, MarkerScore, Match, NameScore, scoring_version
from labeler.scoring.fingerprint import ItemPrint, key_fingerprint, prints
from labeler.scoring.markers import read_letter
from labeler.store import Item, KeyEntry, Project
from labeler.store.score_cache import CachedScore, CellRow


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
        _remember(entry.result_json, result)  # the next read finds it decoded
    if stored:
        project.score_cache.put_many(version, stored)
    return out


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

    def item_state(self, item_id: str) -> str:
        """The item's lexicon state (:attr:`ItemPrint.state`), without its components unless
        :meth:`item_print` already has them: what trusting a row by state alone compares."""
        found = self._items.get(item_id)
        return found.state if found is not None else self.prints.item_state(self.extra[item_id])

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
    signature = _signature(result_json, key)
    found = _DECODED.get(signature)
    if found is None:
        found = _memo(signature, _decode(json.loads(result_json), key))
    return found


def _remember(result_json: str, result: _Result) -> None:
    """Memoise a result just scored as what decoding its ``result_json`` gives.

    It is that value (:func:`_decode` of :func:`_encode` rebuilds an equal result, which
    ``tests/results/test_cell_summaries.py`` checks), so a cell scored now is not parsed
    back from the text just written: at 100k first-scored cells that parse was 3 s of a
    30 s first read.
    """
    _memo(_signature(result_json, result.key_names), result)


def _signature(result_json: str, key: tuple[str, ...]) -> tuple[bytes, tuple[str, ...]]:
    return hashlib.blake2b(result_json.encode(), digest_size=16).digest(), key


def _memo(signature: tuple[bytes, tuple[str, ...]], result: _Result) -> _Result:
    if len(_DECODED) > MAX_MEMO:
        _DECODED.clear()
    _DECODED[signature] = result
    return result


def _decode(data: dict[str, Any], key: tuple[str, ...]) -> _Result:
    f1, precision, recall, n_pred, n_key = data["s"]
    score = NameScore(
        f1, precision, recall, n_pred, n_key,
        [Match(*match) for match in data["m"]], data["u"], data["x"],
    )  # fmt: skip
    k = data["k"]
    markers = None if k is None else MarkerScore(k[0], k[1], k[2], k[3], k[4])
    return _Result(tuple(data["p"]), key, score, markers, tuple(data["e"]))


_DECODED: dict[tuple[bytes, tuple[str, ...]], _Result] = {}
