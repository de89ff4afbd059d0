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
memoised, and a key list is prepared once per lexicon and reused by every
model and condition scored against it, so live rescoring stays cheap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

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


@dataclass(frozen=True)
class Match:
    """One matched pair and the level that matched it."""

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
    morphological variants (``mitochondrion``/``mitochondrium``) — rather than
    rewarding one name merely containing another.
    """
    return (
        len(a) >= FUZZY_MIN_LEN
        and len(b) >= FUZZY_MIN_LEN
        and a[:FUZZY_PREFIX] == b[:FUZZY_PREFIX]
        and abs(len(a) - len(b)) <= FUZZY_MAX_LEN_DIFF
        and ratio(a, b, score_cutoff=FUZZY_MIN_SIMILARITY * 100) > 0
    )


@dataclass(frozen=True, slots=True)
class _Name:
    raw: str
    norm: str
    forms: frozenset[str]


_NAMES: dict[str, _Name] = {}


def _name(raw: str) -> _Name:
    found = _NAMES.get(raw)
    if found is None:
        if len(_NAMES) > 500_000:
            _NAMES.clear()
        norm = normalize(raw)
        found = _NAMES[raw] = _Name(raw.strip(), norm, name_forms(norm))
    return found


class _Side:
    """A list of names grouped into equivalence classes, with lookup tables."""

    def __init__(self, raws: Iterable[str], index: _Index) -> None:
        self.members: list[list[_Name]] = []
        self.groups: list[list[frozenset[int]]] = []
        # each table maps to (class, the member's surface) so a match names the key it hit
        self.by_raw: dict[str, tuple[int, str]] = {}
        self.by_norm: dict[str, tuple[int, str]] = {}
        self.by_form: dict[str, tuple[int, str]] = {}
        self.by_group: dict[int, tuple[int, str]] = {}
        self.by_prefix: dict[str, list[tuple[int, _Name, frozenset[int]]]] = defaultdict(list)
        for raw in raws:
            name = _name(raw)
            if not name.norm:
                continue
            groups = index.groups(name.forms)
            cls = self._find(name, groups)
            if cls is None:
                cls = len(self.members)
                self.members.append([])
                self.groups.append([])
            self.members[cls].append(name)
            self.groups[cls].append(groups)
            hit = (cls, name.raw)
            self.by_raw.setdefault(name.raw, hit)
            self.by_norm.setdefault(name.norm, hit)
            for form in name.forms:
                self.by_form.setdefault(form, hit)
            for gid in groups:
                self.by_group.setdefault(gid, hit)
            if len(name.norm) >= FUZZY_MIN_LEN:
                self.by_prefix[name.norm[:FUZZY_PREFIX]].append((cls, name, groups))

    def _find(self, name: _Name, groups: frozenset[int]) -> int | None:
        hit = self.by_norm.get(name.norm)
        for form in name.forms if hit is None else ():
            hit = hit or self.by_form.get(form)
        for gid in groups if hit is None else ():
            hit = hit or self.by_group.get(gid)
        return None if hit is None else hit[0]

    def representative(self, cls: int) -> str:
        return self.members[cls][0].raw


def _prepared_key(key: Sequence[str], index: _Index) -> _Side:
    cache = index.prepared
    token = tuple(key)
    side = cache.get(token)
    if side is None:
        if len(cache) > 50_000:
            cache.clear()
        side = cache[token] = _Side(token, index)
    return side


def _vetoed(index: _Index, a: frozenset[int], b: frozenset[int]) -> bool:
    return bool(index.distinct) and any((x, y) in index.distinct for x in a for y in b)


def _edges(
    preds: _Side, keys: _Side, index: _Index
) -> dict[tuple[int, int], tuple[int, str, str]]:
    """Best (strength, pred surface, key surface) per (pred class, key class)."""
    best: dict[tuple[int, int], tuple[int, str, str]] = {}

    def offer(
        p: int, hit: tuple[int, str] | None, strength: int, name: _Name, gids: frozenset[int]
    ) -> None:
        if hit is None:
            return
        k, key_raw = hit
        current = best.get((p, k))
        if (current is None or strength > current[0]) and (
            strength >= 4 or not _vetoed(index, gids, _class_groups(keys, k))
        ):
            best[(p, k)] = (strength, name.raw, key_raw)

    for p, (names, groups) in enumerate(zip(preds.members, preds.groups, strict=True)):
        for name, gids in zip(names, groups, strict=True):
            offer(p, keys.by_raw.get(name.raw), 5, name, gids)
            offer(p, keys.by_norm.get(name.norm), 4, name, gids)
            for form in name.forms:
                offer(p, keys.by_form.get(form), 3, name, gids)
            for gid in gids:
                offer(p, keys.by_group.get(gid), 2, name, gids)
            if len(name.norm) >= FUZZY_MIN_LEN:
                for k, key_name, key_gids in keys.by_prefix.get(name.norm[:FUZZY_PREFIX], ()):
                    if (p, k) not in best and fuzzy_similar(name.norm, key_name.norm):
                        if not _vetoed(index, gids, key_gids):
                            best[(p, k)] = (1, name.raw, key_name.raw)
    return best


def _class_groups(side: _Side, cls: int) -> frozenset[int]:
    groups = side.groups[cls]
    return groups[0] if len(groups) == 1 else frozenset().union(*groups)


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
    keys = _prepared_key(key, index)
    preds = _Side(predicted, index)
    edges = _edges(preds, keys, index)
    pairs = _one_to_one(edges) if edges else []
    n_pred, n_key, tp = len(preds.members), len(keys.members), len(pairs)
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
        unmatched_pred=[preds.representative(p) for p in range(n_pred) if p not in matched_p],
        missed_key=[keys.representative(k) for k in range(n_key) if k not in matched_k],
    )


_EMPTY: list[_Index] = []


def _empty_index() -> _Index:
    if not _EMPTY:
        from labeler.lexicon import _Index

        _EMPTY.append(_Index(()))
    return _EMPTY[0]
