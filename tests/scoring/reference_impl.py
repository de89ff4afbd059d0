"""The scorer as it was before the speed work: the differential tests' oracle.

A copy of the straightforward matcher (token-by-token edge search per answer,
bipartite step), minus its caches: every call profiles its names and prepares
its key from scratch, so it shares no state with :mod:`labeler.scoring.cache`
and cannot hide a caching bug there. Its equivalence classes are a pairwise
flood fill, not a copy of :mod:`labeler.scoring.classes`' union-find.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz.fuzz import ratio

from labeler.scoring.cache import _empty_index
from labeler.scoring.fuzzy import (
    FUZZY_MAX_LEN_DIFF,
    FUZZY_MIN_LEN,
    FUZZY_MIN_SIMILARITY,
    FUZZY_PREFIX,
)
from labeler.scoring.match import Match, NameScore
from labeler.scoring.profiles import _HOW_OF
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon, _Index

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


def _classes(names: Sequence[_Name]) -> tuple[list[int], list[str]]:
    """Equivalence class per name and each class's first surface.

    Two names are in one class when a chain of names, each sharing an equivalence
    token (normalised form, singular reading or lexicon group) with the next, links
    them. Written independently of the scorer's union-find: a plain flood fill that
    compares every pair of names, numbering classes by their first name.
    """
    tokens = [set(name.equivalent) for name in names]
    class_of = [-1] * len(names)
    reps: list[str] = []
    for first in range(len(names)):
        if class_of[first] != -1:
            continue
        number = len(reps)
        reps.append(names[first].raw)
        class_of[first] = number
        reached = [first]
        while reached:
            i = reached.pop()
            for j in range(len(names)):
                if class_of[j] == -1 and tokens[i] & tokens[j]:
                    class_of[j] = number
                    reached.append(j)
    return class_of, reps


def _vetoed(distinct: frozenset[tuple[int, int]], a: frozenset[int], b: frozenset[int]) -> bool:
    return any((x, y) in distinct for x in a for y in b)


def _match_side(
    predicted: Sequence[str], keys: _Side, index: _Index
) -> tuple[list[str], dict[tuple[int, int], tuple[int, str, str]]]:
    """Prediction classes (their surfaces) and the best edge per (pred, key) class pair.

    Hot path of live rescoring: lookups are one C-level intersection of the
    key table with the name's tokens; Python only loops over actual hits.
    """
    best: dict[tuple[int, int], tuple[int, str, str]] = {}
    table, distinct, fuzzy = keys.table, index.distinct, keys.fuzzy
    profiles = [n for n in (_profile(raw, index) for raw in predicted) if n.norm]
    class_of, reps = _classes(profiles)
    for name, p in zip(profiles, class_of, strict=True):
        for token in table.keys() & name.strength:
            strength = name.strength[token]
            k, key_raw = table[token]
            current = best.get((p, k))
            if current is not None and current[0] >= strength:
                continue
            if strength < 4 and distinct and _vetoed(distinct, name.groups, keys.groups[k]):
                continue
            best[(p, k)] = (strength, name.raw, key_raw)
        candidates = fuzzy.get(name.fuzzy_prefix) if name.fuzzy_prefix else None
        for k, key_raw, key_norm, key_groups in candidates or ():
            if (
                abs(len(key_norm) - len(name.norm)) <= FUZZY_MAX_LEN_DIFF
                and (p, k) not in best
                and ratio(name.norm, key_norm, score_cutoff=FUZZY_MIN_SIMILARITY * 100)
                and not (distinct and _vetoed(distinct, name.groups, key_groups))
            ):
                best[(p, k)] = (1, name.raw, key_raw)
    return reps, best


def _one_to_one(edges: dict[tuple[int, int], tuple[int, str, str]]) -> list[tuple[int, int]]:
    lefts = [p for p, _ in edges]
    rights = [k for _, k in edges]
    if len(set(lefts)) == len(lefts) and len(set(rights)) == len(rights):
        return sorted(edges)
    weights = {pair: value[0] for pair, value in edges.items()}
    return max_matching(weights, max(lefts) + 1, max(rights) + 1)


def score_names(
    predicted: Sequence[str], key: Sequence[str], lexicon: Lexicon | None = None
) -> NameScore:
    """Score one answer's names against the answer key (see the module docstring)."""
    index = lexicon.index if lexicon is not None else _empty_index()
    keys = _Side(key, index)
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
        matches=[
            Match(edges[pair][1], edges[pair][2], _HOW_OF[edges[pair][0]])  # type: ignore[arg-type]
            for pair in pairs
        ],
        unmatched_pred=[r for p, r in enumerate(pred_reps) if p not in matched_p],
        missed_key=[r for k, r in enumerate(keys.reps) if k not in matched_k],
    )


def max_matching(
    edges: Mapping[tuple[int, int], int], n_left: int, n_right: int
) -> list[tuple[int, int]]:
    """Pairs ``(left, right)`` of a maximum matching with maximum total edge weight.

    ``edges`` maps ``(left, right)`` to a positive strength.
    """
    source, sink = n_left + n_right, n_left + n_right + 1
    # residual capacity and cost per directed arc
    cap: dict[tuple[int, int], int] = {}
    cost: dict[tuple[int, int], int] = {}

    def arc(u: int, v: int, c: int) -> None:
        cap[(u, v)], cap[(v, u)] = 1, 0
        cost[(u, v)], cost[(v, u)] = c, -c

    lefts = {left for left, _ in edges}
    rights = {right for _, right in edges}
    for left in lefts:
        arc(source, left, 0)
    for right in rights:
        arc(n_left + right, sink, 0)
    for (left, right), strength in edges.items():
        arc(left, n_left + right, -strength)

    while True:
        dist = {source: 0}
        prev: dict[int, int] = {}
        for _ in range(n_left + n_right + 2):
            changed = False
            for (u, v), c in cap.items():
                if c > 0 and u in dist and dist[u] + cost[(u, v)] < dist.get(v, 1 << 30):
                    dist[v] = dist[u] + cost[(u, v)]
                    prev[v] = u
                    changed = True
            if not changed:
                break
        if sink not in dist:
            break
        v = sink
        while v != source:
            u = prev[v]
            cap[(u, v)] -= 1
            cap[(v, u)] += 1
            v = u
    return sorted((left, right) for (left, right) in edges if cap[(left, n_left + right)] == 0)
