"""items.jsonl rows: one per exported item, with what others need to re-score.

Besides the key, each row lists, per key name, the other names printed with it
(``alternatives``, e.g. "eardrum" for "Tympanic membrane (eardrum)") and the
printed text that is not a name (``key_notes``), every lexicon name the scorer
accepted as the same part (``synonyms``, which include the alternatives) and
every name a ``distinct`` row kept apart from it (``distinct``) — for people.
For programs, ``lexicon`` holds the rows that bear on the item: every row of
every synonym group that one of its key or predicted names falls in, and of
every group a ``distinct`` row sets against those. Predicted names matter too:
two answers in one group count once. Loaded as per-item rows, they reproduce
every score exactly, which makes a published export re-scorable and importable
(:mod:`labeler.export.importer`).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from labeler.export.rows import Row, public_number
from labeler.lexicon import Lexicon, LexiconRow
from labeler.prompts import CONDITIONS
from labeler.results import CellColumns, ItemFlags, ItemLexicons, key_names
from labeler.scoring import score_names
from labeler.scoring.fingerprint import prints
from labeler.store import Item, KeyEntry, Project
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms


class LexiconTerms:
    """The lexicon's surface names grouped by synonym group, for listing a name's synonyms."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.index = lexicon.index
        self._seen: dict[str, frozenset[int]] = {}
        self.by_group: dict[int, set[str]] = defaultdict(set)
        self.rows_by_group: dict[int, set[LexiconRow]] = defaultdict(set)
        for row in lexicon.rows():
            for surface in (row.canonical, row.synonym):
                for gid in self._groups(surface):
                    self.by_group[gid].add(surface)
                    self.rows_by_group[gid].add(row)
        #: group -> the groups a ``distinct`` row sets against it (looked up per name)
        self.vetoed: dict[int, set[int]] = defaultdict(set)
        for a, b in self.index.distinct:
            self.vetoed[a].add(b)

    def relevant_rows(self, names: Iterable[str]) -> list[list[str]]:
        """Rows of the groups ``names`` fall in and of the groups vetoed against those."""
        touched = {gid for name in names for gid in self._groups(name)}
        groups = touched.union(*(self.vetoed.get(a, ()) for a in touched))
        rows = {row for gid in groups for row in self.rows_by_group[gid]}
        return sorted([r.canonical, r.synonym, r.relation] for r in rows)

    def synonyms(self, name: str) -> list[str]:
        """Other names in ``name``'s synonym group(s)."""
        return self._names(self._groups(name), name)

    def distinct(self, name: str) -> list[str]:
        """Names a ``distinct`` row separates from ``name``."""
        vetoed = set().union(*(self.vetoed.get(a, ()) for a in self._groups(name)))
        return self._names(vetoed, name)

    def _groups(self, name: str) -> frozenset[int]:
        found = self._seen.get(name)
        if found is None:  # names recur on every answer of an item, and across items
            found = self._seen[name] = self.index.groups(name_forms(normalize(name)))
        return found

    def _names(self, groups: Iterable[int], name: str) -> list[str]:
        """Surfaces of ``groups``, one per normal form, without ``name`` itself; sorted."""
        own = normalize(name)
        chosen: dict[str, str] = {}
        for surface in sorted({s for g in groups for s in self.by_group[g]}):
            form = normalize(surface)
            if form != own:
                chosen.setdefault(form, surface)
        return sorted(chosen.values(), key=lambda s: (normalize(s), s))


def markers(entries: Sequence[KeyEntry]) -> dict[str, str | None] | None:
    """Marker letter -> key name (``None`` if unnamed); ``None`` when the item has no markers.

    Letters are sorted (A … Z, AA …) rather than kept in key order, so the
    mapping reads naturally and does not depend on how the key was entered.
    """
    found: dict[str, str | None] = {}
    for e in entries:
        if e.marker and e.marker not in found:
            found[e.marker] = e.name or None
    return {m: found[m] for m in sorted(found, key=lambda m: (len(m), m))} or None


def printed_with(entries: Sequence[KeyEntry]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Key name -> its alternatives, and key name -> its note, for every key name.

    A name that appears twice in a key (two arrows to one part) gets the
    alternatives and notes of both, each once, in key order.
    """
    alternatives: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}
    for e in entries:
        if e.name:
            mine = alternatives.setdefault(e.name, [])
            mine += [a for a in e.alternatives if a not in mine]
            said = notes.setdefault(e.name, [])
            said += [e.note] if e.note and e.note not in said else []
    return alternatives, {n: "; ".join(v) for n, v in notes.items()}


def mean_f1(scored: Iterable[tuple[str, str, float]]) -> dict[str, float | None]:
    """Per condition, the mean F1 over models of ``(model, condition, f1)`` cells (fixed
    summation order, so re-exports match)."""
    by_condition: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for model, condition, f1 in scored:
        by_condition[condition].append((model, f1))
    out: dict[str, float | None] = {}
    for condition in CONDITIONS:
        values = sorted(by_condition.get(condition, ()))
        out[condition] = math.fsum(f1 for _, f1 in values) / len(values) if values else None
    return out


@dataclass(frozen=True)
class ItemCells:
    """An item's published cells as its row reads them: ``(model, condition, f1)`` each,
    every answer's predicted names and the key's class count (None: no answer)."""

    scored: list[tuple[str, str, float]]
    predicted: list[tuple[str, ...]]
    n_key: int | None


def item_row(
    item: Item,
    public_id: str,
    entries: Sequence[KeyEntry],
    terms: LexiconTerms,
    lexicon: Lexicon,
    cells: ItemCells,
    flags: ItemFlags,
) -> Row:
    """The published row of one item (no source, page, clip or internal id)."""
    names = list(key_names(entries))
    alternatives, notes = printed_with(entries)
    return {
        "item_id": public_id,
        "subject": item.subject,
        "tier": item.tier,
        "pattern": item.pattern,
        # every scored cell of the item has its key's class count; unanswered items score one
        "n_key": cells.n_key if cells.n_key is not None else score_names([], names, lexicon).n_key,
        "key_names": names,
        "markers": markers(entries),
        "synonyms": {n: terms.synonyms(n) for n in names},
        "alternatives": alternatives,
        "key_notes": notes,
        "distinct": {n: terms.distinct(n) for n in names},
        "lexicon": terms.relevant_rows(_answered(names, cells.predicted)),
        "unsolved_core": flags.unsolved_core,
        "recitable": flags.recitable,
        "mean_f1": mean_f1(cells.scored),
    }


def _answered(names: Iterable[str], predicted: Iterable[tuple[str, ...]]) -> set[str]:
    """``names`` and every name the item's answers gave, once each (one C-level pass)."""
    return {*names, *itertools.chain.from_iterable(predicted)}


def item_rows(
    project: Project,
    items: Sequence[Item],
    cells: CellColumns,
    positions: Iterable[int],
    public_ids: Mapping[str, str],
    flags: Mapping[str, ItemFlags],
) -> list[Row]:
    """Rows for ``items`` in public-number order from the cells at ``positions`` of
    ``cells`` (:func:`labeler.results.cell_columns`); ``flags`` are the items' card flags."""
    keys = cells.keys
    by_item: dict[str, ItemCells] = {}
    item_ids, models, conditions, f1s = cells.item_id, cells.model, cells.condition, cells.f1
    n_key, predicted = cells.n_key, cells.predicted_names
    for k in positions:  # every published cell: columns held in locals
        item_id = item_ids[k]
        mine = by_item.get(item_id)
        if mine is None:
            mine = by_item[item_id] = ItemCells([], [], n_key[k])
        mine.scored.append((models[k], conditions[k], f1s[k]))
        mine.predicted.append(predicted[k])
    unrun = ItemFlags(unsolved_core=True, recitable=False)
    nothing = ItemCells([], [], None)
    lexicons = ItemLexicons(project, keys)  # the lexicon is read once per export
    shared = LexiconTerms(lexicons.base)
    rows = []
    for item in items:
        mine = by_item.get(item.id, nothing)
        found = flags.get(item.id, unrun) if mine.scored else unrun
        entries = keys.get(item.id, [])
        extra = lexicons.extra(item.id)
        terms = shared
        if extra:  # terms of just the rows that bear on the item: never the whole lexicon again
            names = _answered(key_names(entries), mine.predicted)
            reaching = prints(lexicons.base).rows_reaching(names, extra)
            terms = LexiconTerms(Lexicon(reaching).with_rows(extra))
        lexicon = lexicons.lexicon(item.id)
        rows.append(item_row(item, public_ids[item.id], entries, terms, lexicon, mine, found))
    return sorted(rows, key=lambda r: public_number(r["item_id"]))
