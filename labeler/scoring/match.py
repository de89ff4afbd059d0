"""Synonym-aware name-set F1 with every match explained.

The dataset card's scorer, rule by rule:

* names are compared at five levels, strongest first: ``exact`` (same string
  after trimming), ``normalized`` (:func:`~labeler.scoring.normalize.normalize`),
  ``plural`` (a shared singular reading of the head word,
  :mod:`labeler.scoring.plurals`), ``synonym`` (one lexicon group, plurals
  included) and ``fuzzy`` (see :func:`fuzzy_similar`);
* a lexicon ``distinct`` row vetoes the plural, synonym and fuzzy levels;
* predictions equivalent to each other (any level but fuzzy) count once, and
  so do key names; fuzzy is excluded there because two near-identical
  predictions (``nucleus``, ``nucleolus``) are often two different answers;
* matching is one-to-one and maximum, preferring stronger levels
  (:mod:`labeler.scoring.bipartite`);
* an empty prediction scores 0; F1 = 2PR / (P + R).

Speed: per-name work (normal form, singular readings, lexicon groups) is
memoised, a key list is prepared once per lexicon and reused by every model
and condition scored against it, and each prediction surface's edges to a
prepared key are memoised on it, so a surface seen before costs one lookup.
The bipartite step runs only when some name has two candidate partners.
``bench/score.py`` measures it; ``tests/scoring/test_fast_path.py`` holds it
to the pre-memo matcher result for result.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Literal, NamedTuple

from rapidfuzz.fuzz import ratio

from labeler.scoring.bipartite import max_matching
from labeler.scoring.normalize import normalize
from labeler.scoring.plurals import name_forms

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon, _Index

How = Literal["exact", "normalized", "plural", "synonym", "fuzzy"]
STRENGTH: dict[str, int] = {"exact": 5, "normalized": 4, "plural": 3, "synonym": 2, "fuzzy": 1}
_HOW_OF = {v: k for k, v in STRENGTH.items()}

#: The card's fuzzy guards.
FUZZY_MIN_LEN = 7
FUZZY_PREFIX = 3
FUZZY_MAX_LEN_DIFF = 3
FUZZY_MIN_SIMILARITY = 0.86


class Match(NamedTuple):
    """One matched pair and the level that matched it (a tuple: cheap to build in bulk)."""

    pred: str
    key: str
    how: How


@dataclass(frozen=True)
class NameScore:
    """Name-set F1 for one answer, with the evidence behind it."""

    f1: float
    precision: float
    recall: float
    n_pred: int
    n_key: int
    matches: list[Match] = field(default_factory=list)
    unmatched_pred: list[str] = field(default_factory=list)
    missed_key: list[str] = field(default_factory=list)


def fuzzy_similar(a: str, b: str) -> bool:
    """The card's fuzzy rule on two normalised names.

    Guards: both >= 7 characters, first 3 identical, lengths within 3, and
    similarity >= 0.86 measured as ``rapidfuzz.fuzz.ratio / 100`` — the
    normalised Indel similarity ``1 - indel_distance / (len(a) + len(b))``. We
    use this ratio (not ``partial_ratio`` or token ratios) because it is the one
    that reproduces the card's own example (``nucleus`` vs ``nucleolus`` =
    0.875), it is symmetric, and it scores insertions/deletions — the shape of
    morphological variants and typos (``mitochondrian``) — rather than
    rewarding one name merely containing another.
    """
    return (
        len(a) >= FUZZY_MIN_LEN
        and len(b) >= FUZZY_MIN_LEN
        and a[:FUZZY_PREFIX] == b[:FUZZY_PREFIX]
        and abs(len(a) - len(b)) <= FUZZY_MAX_LEN_DIFF
        and ratio(a, b, score_cutoff=FUZZY_MIN_SIMILARITY * 100) > 0
    )


# Token tags keep the levels apart in one lookup table (lexicon groups are ints).
_RAW, _NORM, _FORM = "\x01", "\x02", "\x03"


@dataclass(frozen=True, slots=True)
class _Name:
    """Everything the matcher needs about one surface, computed once per lexicon.

    ``strength`` maps each lookup token to its level's strength (5 exact …
    2 synonym); ``equivalent`` are the tokens that make two names "the same"
    (all levels but exact, which normalised subsumes, and fuzzy).
    """

    raw: str
    norm: str
    groups: frozenset[int]
    strength: dict[str | int, int]
    equivalent: tuple[str | int, ...]
    fuzzy_prefix: str | None


def _profile(raw: str, index: _Index) -> _Name:
    found = index.names.get(raw)
    if found is None:
        if len(index.names) > 500_000:
            index.names.clear()
        norm = normalize(raw)
        forms = name_forms(norm)
        groups = index.groups(forms)
        equivalent = (_NORM + norm, *(_FORM + f for f in sorted(forms)), *sorted(groups))
        strength: dict[str | int, int] = dict.fromkeys(groups, 2)
        strength.update(dict.fromkeys(equivalent[1 : 1 + len(forms)], 3))
        strength[equivalent[0]] = 4
        strength[_RAW + raw.strip()] = 5
        prefix = norm[:FUZZY_PREFIX] if len(norm) >= FUZZY_MIN_LEN else None
        found = _Name(raw.strip(), norm, groups, strength, equivalent, prefix)
        index.names[raw] = found
    return found


class _Side:
    """A key list merged into equivalence classes, with one lookup table."""

    def __init__(self, raws: Iterable[str], index: _Index) -> None:
        names = [n for n in (_profile(raw, index) for raw in raws) if n.norm]
        class_of, self.reps = _classes(names)
        self.groups: list[frozenset[int]] = [frozenset()] * len(self.reps)
        self.table: dict[str | int, tuple[int, str]] = {}
        self.fuzzy: dict[str, list[tuple[int, str, str, frozenset[int]]]] = defaultdict(list)
        for name, cls in zip(names, class_of, strict=True):
            self.groups[cls] = self.groups[cls] | name.groups
            hit = (cls, name.raw)
            self.table.setdefault(_RAW + name.raw, hit)
            for token in name.equivalent:
                self.table.setdefault(token, hit)
            if name.fuzzy_prefix is not None:
                self.fuzzy[name.fuzzy_prefix].append((cls, name.raw, name.norm, name.groups))
        #: prediction surface -> its profile and edges to this key (see :func:`_edges`)
        self.edges: dict[str, _Edges] = {}


def _classes(names: Sequence[_Name]) -> tuple[Sequence[int], list[str]]:
    """Equivalence class per name and each class's first surface.

    Classes are the connected components of "shares an equivalence token"
    (normalised form, singular reading or lexicon group), so the count does
    not depend on order even for chains like ``atrium ~ atria ~ atrion``.
    Classes are numbered by first appearance. The common case (no two names
    equivalent) costs one C-level set build over all their tokens.
    """
    flat = list(chain.from_iterable([name.equivalent for name in names]))
    if len(set(flat)) == len(flat):  # no token shared: every name is its own class
        return range(len(names)), [name.raw for name in names]
    owner: dict[str | int, int] = {}
    parent: list[int] | None = None
    for i, name in enumerate(names):
        if owner.keys().isdisjoint(name.equivalent):
            owner.update(dict.fromkeys(name.equivalent, i))
            continue
        parent = parent or list(range(len(names)))
        for token in name.equivalent:
            a, b = _root(parent, owner.setdefault(token, i)), _root(parent, i)
            parent[max(a, b)] = min(a, b)
    if parent is None:
        return range(len(names)), [n.raw for n in names]
    number: dict[int, int] = {}
    reps: list[str] = []
    class_of = []
    for i, name in enumerate(names):
        root = _root(parent, i)
        if root not in number:
            number[root] = len(reps)
            reps.append(name.raw)
        class_of.append(number[root])
    return class_of, reps


def _root(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


#: Surfaces memoised per prepared key before its memo starts over (bounds memory).
_MAX_EDGE_MEMO = 5_000


def _prepared_key(key: Sequence[str], index: _Index) -> _Side:
    cache = index.prepared
    token = tuple(key)
    side = cache.get(token)
    if side is None:
        if len(cache) > 50_000:
            cache.clear()
        side = cache[token] = _Side(token, index)
    return side


def _vetoed(distinct: frozenset[tuple[int, int]], a: frozenset[int], b: frozenset[int]) -> bool:
    return any((x, y) in distinct for x in a for y in b)


#: An edge as the merge stores it: key class -> (strength, prediction surface, key surface).
_Edge = tuple[int, tuple[int, str, str]]
#: One prediction surface against one prepared key: its profile and its edges.
_Edges = tuple[_Name, tuple[_Edge, ...]]


def _edges(name: _Name, keys: _Side, index: _Index) -> tuple[_Edge, ...]:
    """Every edge from one prediction to the key classes, in first-found order.

    Per key class: the strongest unvetoed level and the key surface of the first
    token reaching it; fuzzy edges (first passing key surface, bucket order) only
    for classes no stronger level reached. Merging these per prediction class
    with "replace only if strictly stronger" gives exactly the edges of testing
    token by token, so the result is memoised per (prepared key, surface).
    """
    found: dict[int, tuple[int, str]] = {}
    table, distinct = keys.table, index.distinct
    for token in table.keys() & name.strength:
        strength = name.strength[token]
        k, key_raw = table[token]
        current = found.get(k)
        if current is not None and current[0] >= strength:
            continue
        if strength < 4 and distinct and _vetoed(distinct, name.groups, keys.groups[k]):
            continue
        found[k] = (strength, key_raw)
    candidates = keys.fuzzy.get(name.fuzzy_prefix) if name.fuzzy_prefix else None
    for k, key_raw, key_norm, key_groups in candidates or ():
        if (
            k not in found
            and abs(len(key_norm) - len(name.norm)) <= FUZZY_MAX_LEN_DIFF
            and ratio(name.norm, key_norm, score_cutoff=FUZZY_MIN_SIMILARITY * 100)
            and not (distinct and _vetoed(distinct, name.groups, key_groups))
        ):
            found[k] = (1, key_raw)
    return tuple((k, (strength, name.raw, key_raw)) for k, (strength, key_raw) in found.items())


def _match_side(
    predicted: Sequence[str], keys: _Side, index: _Index
) -> tuple[list[str], dict[tuple[int, int], tuple[int, str, str]]]:
    """Prediction classes (their surfaces) and the best edge per (pred, key) class pair.

    Hot path of live rescoring: a prediction's edges to a key are computed once
    per prepared key (:func:`_edges`) and reused by every answer that repeats
    that surface, so each answer costs a few dict lookups per name.
    """
    memo = keys.edges
    found = [memo.get(raw) for raw in predicted]
    if None in found:
        if len(memo) > _MAX_EDGE_MEMO:
            memo.clear()
        for n, raw in enumerate(predicted):
            if found[n] is None:
                name = index.names.get(raw) or _profile(raw, index)
                found[n] = memo[raw] = (name, _edges(name, keys, index) if name.norm else ())
    entries = [entry for entry in found if entry is not None and entry[0].norm]
    class_of, reps = _classes([name for name, _ in entries])
    if isinstance(class_of, range):  # one name per class: no edge competes with another
        return reps, {(p, k): edge for p, (_, edges) in enumerate(entries) for k, edge in edges}
    best: dict[tuple[int, int], tuple[int, str, str]] = {}
    for (_, edges), p in zip(entries, class_of, strict=True):
        for k, edge in edges:
            current = best.get((p, k))
            if current is None or current[0] < edge[0]:
                best[(p, k)] = edge
    return reps, best


def _one_to_one(edges: dict[tuple[int, int], tuple[int, str, str]]) -> list[tuple[int, int]]:
    lefts, rights = zip(*edges, strict=True)
    if len(set(lefts)) == len(lefts) == len(set(rights)):  # no choice to make: greedy is maximum
        return sorted(edges)
    weights = {pair: value[0] for pair, value in edges.items()}
    return max_matching(weights, max(lefts) + 1, max(rights) + 1)


def score_names(
    predicted: Sequence[str], key: Sequence[str], lexicon: Lexicon | None = None
) -> NameScore:
    """Score one answer's names against the answer key (see the module docstring)."""
    index = lexicon.index if lexicon is not None else _empty_index()
    keys = _prepared_key(key, index)
    pred_reps, edges = _match_side(predicted, keys, index)
    pairs = _one_to_one(edges) if edges else []
    n_pred, n_key, tp = len(pred_reps), len(keys.reps), len(pairs)
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_key if n_key else 0.0
    f1 = 2 * precision * recall / (precision + recall) if tp else 0.0
    matched_p = {p for p, _ in pairs}
    matched_k = {k for _, k in pairs}
    return NameScore(
        f1=f1,
        precision=precision,
        recall=recall,
        n_pred=n_pred,
        n_key=n_key,
        matches=[Match(pred, key, _HOW_OF[level]) for level, pred, key in map(edges.get, pairs)],
        unmatched_pred=[r for p, r in enumerate(pred_reps) if p not in matched_p],
        missed_key=[r for k, r in enumerate(keys.reps) if k not in matched_k],
    )


def equivalence_classes(names: Sequence[str], lexicon: Lexicon | None = None) -> list[int]:
    """Class number per name under the scorer's equivalence (all levels but fuzzy).

    Blank names get -1. This is the rule that makes equivalent predictions
    count once; the analysis uses it to pool names across models.
    """
    index = lexicon.index if lexicon is not None else _empty_index()
    profiles = [_profile(raw, index) for raw in names]
    kept = [n for n in profiles if n.norm]
    class_of = iter(_classes(kept)[0])
    return [next(class_of) if n.norm else -1 for n in profiles]


_EMPTY: list[_Index] = []


def _empty_index() -> _Index:
    if not _EMPTY:
        from labeler.lexicon import _Index

        _EMPTY.append(_Index(()))
    return _EMPTY[0]
