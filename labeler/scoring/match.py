"""Synonym-aware name-set F1 with every match explained: the scorer's public API.

The scorer, rule by rule (``rules="card"`` is the dataset card's scorer exactly;
``rules="expert"``, the default, reads each surface first the way a grader
does, :mod:`labeler.scoring.expert`):

* names are compared at five levels, strongest first: ``exact`` (same string
  after trimming), ``normalized`` (:func:`~labeler.text.normalize.normalize`, or
  one of the expert readings), ``plural`` (a shared singular reading,
  :mod:`labeler.text.plurals`), ``synonym`` (one lexicon group, plurals
  included) and ``fuzzy`` (:func:`labeler.scoring.fuzzy.fuzzy_similar`; the
  expert rules also require :func:`~labeler.scoring.contrast.typo_close`);
  each surface's reading is its profile (:mod:`labeler.scoring.profiles`);
* a lexicon ``distinct`` row vetoes the plural, synonym and fuzzy levels;
* predictions equivalent to each other (any level but fuzzy) count once, and
  so do key names (:mod:`labeler.scoring.classes`);
* under the expert rules an answer that hedges between two parts
  (``left/right atrium``, or alternatives that reach two key names) matches none;
* matching is one-to-one and maximum, preferring stronger levels
  (:mod:`labeler.scoring.edges`, :mod:`labeler.scoring.bipartite`);
* an empty prediction scores 0; F1 = 2PR / (P + R).

Every :class:`Match` carries its level (``how``) and, for expert readings, the
rules that made the two surfaces meet (``rule``, e.g. ``prefix B: dropped``).

Speed: profiles and prepared keys are memoised per lexicon index and rule set
(:mod:`labeler.scoring.cache`), and each prediction surface's edges to a prepared
key are memoised on it, so a surface seen before costs one lookup.
``bench/score.py`` measures it; ``tests/scoring/test_fast_path.py`` holds the card
rules to the pre-memo matcher.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from labeler.lexicon import Lexicon
from labeler.scoring.cache import _cache, _prepared_key
from labeler.scoring.classes import _classes
from labeler.scoring.edges import _MAX_EDGE_MEMO, _best, _Counts, _Edge, _one_to_one, _read, _Side
from labeler.scoring.profiles import _HOW_OF, How
from labeler.scoring.rules import DEFAULT_RULES, Rules


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
    names, found = _read(predicted, cache.name, keys)
    class_of, pred_reps = _classes(names)
    edges = _best(found, class_of)
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
        names, edges = _read(token, cache.name, keys)
        class_of, reps = _classes(names)
        found = keys.counts[token] = _counts(edges, class_of, len(reps), keys)
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
    found once, each key is prepared once and each answer's names are merged into classes
    once, however many keys it meets, so a pair's own work is its edges and matching
    (a lookup per name for a surface the key has met). The numbers are
    :func:`score_counts`' (the same functions compute them); pairs are not memoised
    here: a caller passes each distinct pair once.
    """
    cache = _cache(lexicon, rules)
    sides: list[_Side | None] = [None] * len(keys)
    classes: list[tuple[Sequence[int], int] | None] = [None] * len(answers)
    name_of = cache.name
    out = []
    for a, k in pairs:
        side = sides[k]
        if side is None:
            side = sides[k] = _prepared_key(keys[k], cache)
        names, edges = _read(answers[a], name_of, side)
        merged = classes[a]
        if merged is None:  # the same names whatever the key: one cache reads them all
            class_of, reps = _classes(names)
            merged = classes[a] = class_of, len(reps)
        out.append(_counts(edges, *merged, side))
    return out


def _counts(
    found: list[tuple[_Edge, ...]], class_of: Sequence[int], n_pred: int, keys: _Side
) -> _Counts:
    """The numbers of one answer (its names' edges and classes) against one prepared key."""
    edges = _best(found, class_of)
    tp = len(_one_to_one(edges)) if edges else 0
    n_key = len(keys.reps)
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
