"""Match edges: which key names one prediction reaches, at which level, and the assignment.

A key list is prepared once (:class:`_Side`: its classes and one lookup table of
every key name's tokens); a prediction surface's edges to it are then one set
intersection of tokens plus the fuzzy candidates sharing its prefix, memoised per
surface on the prepared key. A lexicon ``distinct`` row vetoes the plural, synonym
and fuzzy levels; under the expert rules an answer that hedges between two parts
(``left/right atrium``, or alternatives that reach two key names) matches none.
Matching is one-to-one and maximum, preferring stronger levels
(:mod:`labeler.scoring.bipartite`); the bipartite step runs only when some name has
two candidate partners.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence

from rapidfuzz.fuzz import ratio

from labeler.scoring import expert
from labeler.scoring.bipartite import max_matching
from labeler.scoring.classes import _classes
from labeler.scoring.contrast import typo_close
from labeler.scoring.fuzzy import FUZZY_MAX_LEN_DIFF, FUZZY_MIN_SIMILARITY
from labeler.scoring.profiles import _NO_RULES, _NORM, _RAW, _Name

#: ``(f1, precision, recall, n_pred, n_key)`` of one answer against one key.
_Counts = tuple[float, float, float, int, int]

#: Surfaces memoised per prepared key before its memo starts over (bounds memory).
_MAX_EDGE_MEMO = 5_000


class _Side:
    """A key list merged into equivalence classes, with one lookup table.

    ``distinct`` (the lexicon's vetoes) and ``expert_rules`` come with it: a
    prepared key belongs to one lexicon under one rule set.
    """

    def __init__(
        self, profiles: Sequence[_Name], distinct: frozenset[tuple[int, int]], expert_rules: bool
    ) -> None:
        names = [n for n in profiles if n.norm]
        self.distinct = distinct
        self.expert_rules = expert_rules
        class_of, self.reps = _classes(names)
        self.groups: list[frozenset[int]] = [frozenset()] * len(self.reps)
        self.table: dict[str | int, tuple[int, str, tuple[str, ...]]] = {}
        self.fuzzy: dict[Hashable, list[tuple[int, str, str, frozenset[int], tuple[str, ...]]]]
        self.fuzzy = defaultdict(list)
        for name, cls in zip(names, class_of, strict=True):
            self.groups[cls] = self.groups[cls] | name.groups
            for token in name.strength:
                self.table.setdefault(token, (cls, name.raw, name.why.get(token, _NO_RULES)))
            for bucket, text in name.fuzzy:
                why = name.why.get(_NORM + text, _NO_RULES)
                self.fuzzy[bucket].append((cls, name.raw, text, name.groups, why))
        #: prediction surface -> its profile and edges to this key (see :func:`_edges`)
        self.edges: dict[str, _Edges] = {}
        #: predicted names -> (f1, precision, recall, n_pred, n_key), see ``score_counts``
        self.counts: dict[tuple[str, ...], _Counts] = {}


def _vetoed(distinct: frozenset[tuple[int, int]], a: frozenset[int], b: frozenset[int]) -> bool:
    return any((x, y) in distinct for x in a for y in b)


def _why(pred: tuple[str, ...], key: tuple[str, ...]) -> str:
    """The rules that brought two surfaces to one reading (the prediction's first)."""
    if not key:
        return "; ".join(pred)
    return "; ".join([*pred, *(r for r in key if r not in pred)])


def _rank(why: str) -> tuple[int, str]:
    return why.count(";"), why


#: An edge as the merge stores it: key class -> (strength, prediction, key surface, rule).
_Edge = tuple[int, tuple[int, str, str, str]]
#: One prediction surface against one prepared key: its profile and its edges.
_Edges = tuple[_Name, tuple[_Edge, ...]]


def _edges(name: _Name, keys: _Side) -> tuple[_Edge, ...]:
    """Every edge from one prediction to the key classes, in first-found order.

    Per key class: the strongest unvetoed level and the key surface of the first
    token reaching it; fuzzy edges (first passing key surface, bucket order) only
    for classes no stronger level reached. Merging these per prediction class
    with "replace only if strictly stronger" gives exactly the edges of testing
    token by token, so the result is memoised per (prepared key, surface). A
    hedge, or alternatives that reach two key classes, gets no edge at all.
    """
    table, distinct = keys.table, keys.distinct
    if name.hedge:  # only the very same string: "left/right atrium" in the key itself
        hit = table.get(_RAW + name.raw)
        return ((hit[0], (5, name.raw, hit[1], "")),) if hit else ()
    found: dict[int, tuple[int, str, str]] = {}
    name_why = name.why
    for token in table.keys() & name.strength:
        strength = name.strength[token]
        k, key_raw, key_why = table[token]
        current = found.get(k)
        pred_why = name_why.get(token, _NO_RULES) if name_why else _NO_RULES
        if pred_why and key_why and expert.heads_differ(pred_why, key_why):
            continue  # both dropped a head noun, different ones: "cranial nerve", "cranial bone"
        why = _why(pred_why, key_why) if pred_why or key_why else ""
        if current is not None and (
            current[0] > strength
            or (current[0] == strength and (why.count(";"), why) >= _rank(current[2]))
        ):
            continue  # the strongest level, then the fewest rules (a fixed choice, not set order)
        if strength < 4 and distinct and _vetoed(distinct, name.groups, keys.groups[k]):
            continue
        found[k] = (strength, key_raw, why)
    expert_rules = keys.expert_rules
    for bucket, text in name.fuzzy:  # only key texts that may pass (profiles._expert_bucket)
        for k, key_raw, key_text, key_groups, key_why in keys.fuzzy.get(bucket, ()):
            if (
                k not in found
                and abs(len(key_text) - len(text)) <= FUZZY_MAX_LEN_DIFF
                and ratio(text, key_text, score_cutoff=FUZZY_MIN_SIMILARITY * 100)
                and not (distinct and _vetoed(distinct, name.groups, key_groups))
                and (not expert_rules or typo_close(text, key_text))
            ):
                found[k] = (1, key_raw, _why(name.why.get(_NORM + text, _NO_RULES), key_why))
    if name.alternatives and len(found) > 1:  # alternatives that name two key parts: a hedge
        found = {k: edge for k, edge in found.items() if edge[0] == 5}
    return tuple(
        (k, (strength, name.raw, key_raw, why)) for k, (strength, key_raw, why) in found.items()
    )


def _read(
    predicted: Sequence[str], name_of: Callable[[str], _Name], keys: _Side
) -> tuple[list[_Name], list[tuple[_Edge, ...]]]:
    """The profiles of one answer's names that have a reading, in order, and each one's
    edges to ``keys`` (``name_of`` profiles a surface: the key's cache's).

    Hot path of bulk rescoring: a surface's profile and its edges to a prepared key are
    memoised together on the key (:attr:`_Side.edges`), so a name seen before against
    this key costs one dictionary lookup, and only a surface new to it is profiled.
    """
    memo = keys.edges
    names = []
    found = []
    for raw in predicted:
        entry = memo.get(raw)
        if entry is None:
            if len(memo) > _MAX_EDGE_MEMO:
                memo.clear()
            name = name_of(raw)
            entry = memo[raw] = (name, _edges(name, keys) if name.norm else ())
        if entry[0].norm:
            names.append(entry[0])
            found.append(entry[1])
    return names, found


def _best(
    found: list[tuple[_Edge, ...]], class_of: Sequence[int]
) -> dict[tuple[int, int], tuple[int, str, str, str]]:
    """The best edge per (prediction class, key class) pair, from each name's edges."""
    if isinstance(class_of, range):  # one name per class: no edge competes with another
        return {(p, k): edge for p, edges in enumerate(found) for k, edge in edges}
    best: dict[tuple[int, int], tuple[int, str, str, str]] = {}
    for edges, p in zip(found, class_of, strict=True):
        for k, edge in edges:
            current = best.get((p, k))
            if current is None or current[0] < edge[0]:
                best[(p, k)] = edge
    return best


def _one_to_one(edges: dict[tuple[int, int], tuple[int, str, str, str]]) -> list[tuple[int, int]]:
    lefts, rights = zip(*edges, strict=True)
    if len(set(lefts)) == len(lefts) == len(set(rights)):  # no choice to make: greedy is maximum
        return sorted(edges)
    weights = {pair: value[0] for pair, value in edges.items()}
    return max_matching(weights, max(lefts) + 1, max(rights) + 1)
