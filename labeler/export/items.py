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

import functools
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from labeler.export.rows import Row, public_number
from labeler.export.terms import ItemTerms, LexiconTerms
from labeler.lexicon import Lexicon
from labeler.prompts import CONDITIONS
from labeler.results import CellColumns, ItemFlags, ItemLexicons, key_names
from labeler.scoring import score_names
from labeler.store import Item, KeyEntry, Project


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
    terms: LexiconTerms | ItemTerms,
    lexicon: Callable[[], Lexicon],
    cells: ItemCells,
    flags: ItemFlags,
) -> Row:
    """The published row of one item (no source, page, clip or internal id); ``lexicon``
    gives the item's lexicon, asked for only when the item has no answer to take its
    class count from."""
    names = list(key_names(entries))
    alternatives, notes = printed_with(entries)
    return {
        "item_id": public_id,
        "subject": item.subject,
        "tier": item.tier,
        "pattern": item.pattern,
        # every scored cell of the item has its key's class count; unanswered items score one
        "n_key": cells.n_key
        if cells.n_key is not None
        else score_names([], names, lexicon()).n_key,
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
    shared = LexiconTerms(lexicons.base)  # and indexed once: an item's own rows layer on it
    rows = []
    for item in items:
        mine = by_item.get(item.id, nothing)
        found = flags.get(item.id, unrun) if mine.scored else unrun
        extra = lexicons.extra(item.id)
        terms = shared.item(extra) if extra else shared
        lexicon = functools.partial(lexicons.lexicon, item.id)
        entries = keys.get(item.id, [])
        rows.append(item_row(item, public_ids[item.id], entries, terms, lexicon, mine, found))
    return sorted(rows, key=lambda r: public_number(r["item_id"]))
