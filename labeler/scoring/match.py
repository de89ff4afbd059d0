"""Synonym-aware name-set F1 with every match explained.

The scorer, rule by rule (``rules="card"`` is the dataset card's scorer exactly;
``rules="expert"``, the default, reads each surface first the way a grader
does, :mod:`labeler.scoring.expert`):

* names are compared at five levels, strongest first: ``exact`` (same string
  after trimming), ``normalized`` (:func:`~labeler.text.normalize.normalize`, or
  one of the expert readings), ``plural`` (a shared singular reading,
  :mod:`labeler.text.plurals`), ``synonym`` (one lexicon group, plurals
  included) and ``fuzzy`` (see :func:`fuzzy_similar`; the expert rules also
  require :func:`~labeler.scoring.contrast.typo_close`);
* a lexicon ``distinct`` row vetoes the plural, synonym and fuzzy levels;
* predictions equivalent to each other (any level but fuzzy) count once, and
  so do key names; fuzzy is excluded there because two near-identical
  predictions (``nucleus``, ``nucleolus``) are often two different answers;
* under the expert rules an answer that hedges between two parts
  (``left/right atrium``, or alternatives that reach two key names) matches none;
* matching is one-to-one and maximum, preferring stronger levels
  (:mod:`labeler.scoring.bipartite`);
* an empty prediction scores 0; F1 = 2PR / (P + R).

Every :class:`Match` carries its level (``how``) and, for expert readings, the
rules that made the two surfaces meet (``rule``, e.g. ``prefix B: dropped``).

Speed: per-name work (readings, singular forms, lexicon groups) is memoised per
lexicon index and rule set, a key list is prepared once and reused by every
model and condition scored against it, and each prediction surface's edges to a
prepared key are memoised on it, so a surface seen before costs one lookup.
A per-item lexicon takes from the empty lexicon's cache the profile of every name
whose singular readings it does not know (the only thing a profile asks the index),
so only names its terms reach are read again per item.
The bipartite step runs only when some name has two candidate partners. The
caches belong to the scorer (keyed weakly by the lexicon's index); the lexicon
knows nothing of them. ``bench/score.py`` measures it;
``tests/scoring/test_fast_path.py`` holds the card rules to the pre-memo matcher.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Literal, NamedTuple
from weakref import WeakKeyDictionary

from rapidfuzz.fuzz import ratio

from labeler.lexicon import Lexicon
from labeler.scoring import expert
from labeler.scoring.bipartite import max_matching
from labeler.scoring.contrast import typo_close
from labeler.scoring.rules import DEFAULT_RULES, Rules, check_rules
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

if TYPE_CHECKING:
    from labeler.lexicon import _Index

How = Literal["exact", "normalized", "plural", "synonym", "fuzzy"]
STRENGTH: dict[str, int] = {"exact": 5, "normalized": 4, "plural": 3, "synonym": 2, "fuzzy": 1}
_HOW_OF: dict[int, How] = {5: "exact", 4: "normalized", 3: "plural", 2: "synonym", 1: "fuzzy"}

#: The card's fuzzy guards.
FUZZY_MIN_LEN = 7
FUZZY_PREFIX = 3
FUZZY_MAX_LEN_DIFF = 3
FUZZY_MIN_SIMILARITY = 0.86


class Match(NamedTuple):
    """One matched pair, the level that matched it and the expert rules that fired.

    ``rule`` is empty when no reading rule was needed (always under the card's
    rules); otherwise e.g. ``prefix B: dropped`` or ``british spelling``. A tuple:
    cheap to build in bulk.
    """

    pred: str
    key: str
    how: How
    rule: str = ""


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
_NO_RULES: tuple[str, ...] = ()


class _Name(NamedTuple):
    """Everything the matcher needs about one surface, computed once per lexicon.

    ``strength`` maps each lookup token to its level's strength (5 exact …
    2 synonym) and ``why`` the expert rules behind a token; ``equivalent`` are
    the tokens that make two names "the same" (all levels but exact, which
    normalised subsumes, and fuzzy; no lossy reading); ``fuzzy`` the
    ``(prefix, text)`` pairs the fuzzy level compares. ``hedge`` names two parts
    at once; ``alternatives`` offers several names for one part. ``lookups`` are
    every singular reading the profile asked the lexicon's index about: the
    lexicon's only say in a profile, so one the index knows none of is the
    profile under no lexicon at all (:meth:`_Cache.name` shares it).
    """

    raw: str
    norm: str
    groups: frozenset[int]
    strength: dict[str | int, int]
    equivalent: tuple[str | int, ...]
    fuzzy: tuple[tuple[str, str], ...]
    why: dict[str | int, tuple[str, ...]]
    hedge: bool = False
    alternatives: bool = False
    lookups: frozenset[str] = frozenset()


def _card_profile(raw: str, index: _Index) -> _Name:
    norm = normalize(raw)
    forms = name_forms(norm)
    groups = index.groups(forms)
    equivalent: tuple[str | int, ...] = (
        _NORM + norm,
        *(_FORM + f for f in sorted(forms)),
        *sorted(groups),
    )
    strength: dict[str | int, int] = dict.fromkeys(groups, 2)
    strength.update(dict.fromkeys(equivalent[1 : 1 + len(forms)], 3))
    strength[equivalent[0]] = 4
    strength[_RAW + raw.strip()] = 5
    fuzzy = ((norm[:FUZZY_PREFIX], norm),) if len(norm) >= FUZZY_MIN_LEN else ()
    return _Name(raw.strip(), norm, groups, strength, equivalent, fuzzy, {}, lookups=forms)


def _expert_profile(raw: str, index: _Index) -> _Name:
    reader = expert.read(raw)
    readings = reader.readings
    if not readings:
        return _Name(raw.strip(), "", frozenset(), {_RAW + raw.strip(): 5}, (), (), {})
    if len(readings) == 1 and readings[0].text is raw:  # most names: no rule applies
        return _plain_profile(raw, raw, index)
    card_norm = normalize(raw)
    if len(readings) == 1 and not readings[0].rules and readings[0].text == card_norm:
        return _plain_profile(raw, card_norm, index)
    strength: dict[str | int, int] = {}
    why: dict[str | int, tuple[str, ...]] = {}
    equivalent: list[str | int] = []
    lookups = set(name_forms(card_norm))
    groups = set(index.groups(name_forms(card_norm)))
    for reading in readings:
        reading_forms = expert.forms(reading.text)
        tokens = [(_NORM + reading.text, 4), *((_FORM + f, 3) for f in sorted(reading_forms))]
        if not reading.lossy:
            groups |= index.groups(reading_forms)
            lookups |= reading_forms
        for token, level in tokens:
            if strength.get(token, 0) < level:
                strength[token] = level
                why[token] = reading.rules
            if not reading.lossy and token not in equivalent:
                equivalent.append(token)
    found_groups = frozenset(groups)
    for group in sorted(found_groups):
        strength.setdefault(group, 2)
        equivalent.append(group)
    strength[_RAW + raw.strip()] = 5
    why[_RAW + raw.strip()] = _NO_RULES
    fuzzy = tuple(
        (r.text[:FUZZY_PREFIX], r.text)
        for r in readings
        if not r.lossy and len(r.text) >= FUZZY_MIN_LEN
    )
    return _Name(
        raw.strip(),
        readings[0].text,
        found_groups,
        strength,
        (_RAW + raw.strip(),) if reader.hedge else tuple(equivalent),  # a hedge: itself only
        fuzzy,
        why,
        reader.hedge,
        reader.alternatives,
        frozenset(lookups),
    )


def _plain_profile(raw: str, text: str, index: _Index) -> _Name:
    """An expert profile with one reading and no rule: the card's, with every word inflected."""
    forms = expert.forms(text)
    groups = index.groups(forms)
    form_tokens = [_FORM + f for f in forms]  # token order does not matter: classes are components
    equivalent: tuple[str | int, ...] = (_NORM + text, *form_tokens, *groups)
    strength: dict[str | int, int] = dict.fromkeys(groups, 2)
    strength.update(dict.fromkeys(equivalent[1 : 1 + len(forms)], 3))
    strength[equivalent[0]] = 4
    strength[_RAW + raw.strip()] = 5
    fuzzy = ((text[:FUZZY_PREFIX], text),) if len(text) >= FUZZY_MIN_LEN else ()
    return _Name(raw.strip(), text, groups, strength, equivalent, fuzzy, {}, lookups=forms)


_PROFILES = {"card": _card_profile, "expert": _expert_profile}


class _Cache:
    """The scorer's memo tables for one lexicon index under one rule set.

    ``plain`` is the cache of the empty lexicon under the same rules. A name none of
    whose singular readings the index knows has the very profile it has under no
    lexicon (the index is asked about those readings and nothing else), so it is
    taken from there: every per-item lexicon shares one profile of each such name
    instead of reading it again per item. Only names a lexicon's terms reach are
    profiled per lexicon.
    """

    def __init__(self, index: _Index, rules: Rules, plain: _Cache | None = None) -> None:
        self.index = index
        self.rules = rules
        self.profile = _PROFILES[rules]
        self.plain = plain
        #: per-surface profiles
        self.names: dict[str, _Name] = {}
        #: prepared answer keys
        self.prepared: dict[tuple[str, ...], _Side] = {}

    def name(self, raw: str) -> _Name:
        found = self.names.get(raw)
        if found is None:
            if len(self.names) > 500_000:
                self.names.clear()
            if self.plain is None:
                found = self.profile(raw, self.index)
            else:
                found = self.plain.name(raw)
                if self.index.knows_any(found.lookups):
                    found = self.profile(raw, self.index)
            self.names[raw] = found
        return found


_CACHES: WeakKeyDictionary[_Index, dict[str, _Cache]] = WeakKeyDictionary()


def _cache(lexicon: Lexicon | None, rules: str) -> _Cache:
    index = lexicon.index if lexicon is not None else _empty_index()
    per_rules = _CACHES.get(index)
    if per_rules is None:
        per_rules = _CACHES[index] = {}
    cache = per_rules.get(rules)
    if cache is None:
        plain = None if lexicon is None or not len(lexicon) else _cache(None, rules)
        cache = per_rules[rules] = _Cache(index, check_rules(rules), plain)
    return cache


#: ``(f1, precision, recall, n_pred, n_key)`` of one answer against one key.
_Counts = tuple[float, float, float, int, int]


class _Side:
    """A key list merged into equivalence classes, with one lookup table."""

    def __init__(self, raws: Iterable[str], cache: _Cache) -> None:
        names = [n for n in (cache.name(raw) for raw in raws) if n.norm]
        class_of, self.reps = _classes(names)
        self.groups: list[frozenset[int]] = [frozenset()] * len(self.reps)
        self.table: dict[str | int, tuple[int, str, tuple[str, ...]]] = {}
        self.fuzzy: dict[str, list[tuple[int, str, str, frozenset[int], tuple[str, ...]]]]
        self.fuzzy = defaultdict(list)
        for name, cls in zip(names, class_of, strict=True):
            self.groups[cls] = self.groups[cls] | name.groups
            for token in name.strength:
                self.table.setdefault(token, (cls, name.raw, name.why.get(token, _NO_RULES)))
            for prefix, text in name.fuzzy:
                why = name.why.get(_NORM + text, _NO_RULES)
                self.fuzzy[prefix].append((cls, name.raw, text, name.groups, why))
        #: prediction surface -> its profile and edges to this key (see :func:`_edges`)
        self.edges: dict[str, _Edges] = {}
        #: predicted names -> (f1, precision, recall, n_pred, n_key), see :func:`score_counts`
        self.counts: dict[tuple[str, ...], _Counts] = {}


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


def _prepared_key(key: Sequence[str], cache: _Cache) -> _Side:
    prepared = cache.prepared
    token = tuple(key)
    side = prepared.get(token)
    if side is None:
        if len(prepared) > 50_000:
            prepared.clear()
        side = prepared[token] = _Side(token, cache)
    return side


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


def _edges(name: _Name, keys: _Side, cache: _Cache) -> tuple[_Edge, ...]:
    """Every edge from one prediction to the key classes, in first-found order.

    Per key class: the strongest unvetoed level and the key surface of the first
    token reaching it; fuzzy edges (first passing key surface, bucket order) only
    for classes no stronger level reached. Merging these per prediction class
    with "replace only if strictly stronger" gives exactly the edges of testing
    token by token, so the result is memoised per (prepared key, surface). A
    hedge, or alternatives that reach two key classes, gets no edge at all.
    """
    table, distinct = keys.table, cache.index.distinct
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
    expert_rules = cache.rules == "expert"
    for prefix, text in name.fuzzy:
        for k, key_raw, key_text, key_groups, key_why in keys.fuzzy.get(prefix, ()):
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


class _Answer(NamedTuple):
    """One answer's names as the matcher reads them, whatever key it meets.

    ``names`` pairs each surface that has a reading with its profile, in order;
    ``class_of`` and ``reps`` are their equivalence classes (:func:`_classes`).
    """

    names: list[tuple[str, _Name]]
    class_of: Sequence[int]
    reps: list[str]


def _answer(predicted: Sequence[str], cache: _Cache) -> _Answer:
    names = [
        (raw, name)
        for raw, name in zip(predicted, map(cache.name, predicted), strict=True)
        if name.norm
    ]
    class_of, reps = _classes([name for _, name in names])
    return _Answer(names, class_of, reps)


def _match_side(
    predicted: Sequence[str], keys: _Side, cache: _Cache
) -> tuple[list[str], dict[tuple[int, int], tuple[int, str, str, str]]]:
    """Prediction classes (their surfaces) and the best edge per (pred, key) class pair."""
    answer = _answer(predicted, cache)
    return answer.reps, _best_edges(answer, keys, cache)


def _best_edges(
    answer: _Answer, keys: _Side, cache: _Cache
) -> dict[tuple[int, int], tuple[int, str, str, str]]:
    """The best edge per (prediction class, key class) pair of one answer against one key.

    Hot path of live rescoring: a prediction's edges to a key are computed once
    per prepared key (:func:`_edges`) and reused by every answer that repeats
    that surface, so each answer costs a few dict lookups per name.
    """
    memo = keys.edges
    found = []
    for raw, name in answer.names:
        entry = memo.get(raw)
        if entry is None:
            if len(memo) > _MAX_EDGE_MEMO:
                memo.clear()
            entry = memo[raw] = (name, _edges(name, keys, cache))
        found.append(entry[1])
    if isinstance(answer.class_of, range):  # one name per class: no edge competes with another
        return {(p, k): edge for p, edges in enumerate(found) for k, edge in edges}
    best: dict[tuple[int, int], tuple[int, str, str, str]] = {}
    for edges, p in zip(found, answer.class_of, strict=True):
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


def _f1(tp: int, n_pred: int, n_key: int) -> tuple[float, float, float]:
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_key if n_key else 0.0
    f1 = 2 * precision * recall / (precision + recall) if tp else 0.0
    return f1, precision, recall


def score_names(
    predicted: Sequence[str],
    key: Sequence[str],
    lexicon: Lexicon | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> NameScore:
    """Score one answer's names against the answer key (see the module docstring)."""
    cache = _cache(lexicon, rules)
    keys = _prepared_key(key, cache)
    pred_reps, edges = _match_side(predicted, keys, cache)
    pairs = _one_to_one(edges) if edges else []
    n_pred, n_key = len(pred_reps), len(keys.reps)
    f1, precision, recall = _f1(len(pairs), n_pred, n_key)
    matched_p = {p for p, _ in pairs}
    matched_k = {k for _, k in pairs}
    return NameScore(
        f1=f1,
        precision=precision,
        recall=recall,
        n_pred=n_pred,
        n_key=n_key,
        matches=[
            Match(pred, key, _HOW_OF[level], why)
            for level, pred, key, why in map(edges.__getitem__, pairs)
        ],
        unmatched_pred=[r for p, r in enumerate(pred_reps) if p not in matched_p],
        missed_key=[r for k, r in enumerate(keys.reps) if k not in matched_k],
    )


def score_counts(
    predicted: Sequence[str],
    key: Sequence[str],
    lexicon: Lexicon | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> _Counts:
    """``(f1, precision, recall, n_pred, n_key)`` of :func:`score_names`, without the evidence.

    Bulk rescoring needs the numbers only; they are memoised per prepared key
    and answer, so an answer rescored again (the GUI's live rescoring, a second
    ``labeler score`` pass over one lexicon) costs one lookup.
    """
    cache = _cache(lexicon, rules)
    keys = _prepared_key(key, cache)
    token = tuple(predicted)
    found = keys.counts.get(token)
    if found is None:
        if len(keys.counts) > _MAX_EDGE_MEMO:
            keys.counts.clear()
        found = keys.counts[token] = _counts(_answer(token, cache), keys, cache)
    return found


def score_counts_many(
    answers: Sequence[Sequence[str]],
    keys: Sequence[Sequence[str]],
    pairs: Iterable[tuple[int, int]],
    lexicon: Lexicon | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> list[_Counts]:
    """``score_counts(answers[a], keys[k])`` for every ``(a, k)`` of ``pairs``, in order.

    For passes that score answers against keys they were not written for (the
    shuffled-key audit, ~67k distinct pairs at 100k answers): the memo tables are
    found once, each key is prepared once and each answer's names are read and merged
    into classes once, however many keys it meets, so a pair's own work is its edges
    and matching. The numbers are :func:`score_counts`' (the same functions compute
    them); pairs are not memoised here: a caller passes each distinct pair once.
    """
    cache = _cache(lexicon, rules)
    sides: list[_Side | None] = [None] * len(keys)
    read: list[_Answer | None] = [None] * len(answers)
    out = []
    for a, k in pairs:
        side = sides[k]
        if side is None:
            side = sides[k] = _prepared_key(keys[k], cache)
        answer = read[a]
        if answer is None:
            answer = read[a] = _answer(answers[a], cache)
        out.append(_counts(answer, side, cache))
    return out


def _counts(answer: _Answer, keys: _Side, cache: _Cache) -> _Counts:
    """The numbers of one read answer against one prepared key."""
    edges = _best_edges(answer, keys, cache)
    tp = len(_one_to_one(edges)) if edges else 0
    n_pred, n_key = len(answer.reps), len(keys.reps)
    return (*_f1(tp, n_pred, n_key), n_pred, n_key)


def equivalence_classes(
    names: Sequence[str], lexicon: Lexicon | None = None, *, rules: Rules = DEFAULT_RULES
) -> list[int]:
    """Class number per name under the scorer's equivalence (all levels but fuzzy).

    Blank names get -1. This is the rule that makes equivalent predictions
    count once; the analysis uses it to pool names across models.
    """
    cache = _cache(lexicon, rules)
    profiles = [cache.name(raw) for raw in names]
    kept = [n for n in profiles if n.norm]
    class_of = iter(_classes(kept)[0])
    return [next(class_of) if n.norm else -1 for n in profiles]


def name_groups(
    raw: str, lexicon: Lexicon | None = None, *, rules: Rules = DEFAULT_RULES
) -> frozenset[int]:
    """The lexicon group ids the scorer reads for one surface: the lexicon's only say in a score.

    :mod:`labeler.scoring.fingerprint` keys cached scores on the groups a cell's names reach.
    """
    return _cache(lexicon, rules).name(raw).groups


_EMPTY: list[_Index] = []


def _empty_index() -> _Index:
    if not _EMPTY:
        _EMPTY.append(Lexicon().index)
    return _EMPTY[0]
