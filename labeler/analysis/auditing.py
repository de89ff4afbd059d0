"""The report's audits: consensus names, the shuffled-key control, and :func:`audits`.

Consensus names and the shuffled-key control score every answer again, per item; a
keeper (:class:`AuditKeeper`) may hand back the per-item values it kept from an
earlier report. :func:`audits` gathers them, with the metrics' decline rate, marker
accuracy and paired items, as plain JSON-shaped data that rendering reads.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np
import pandas as pd

from labeler.analysis.metrics import (
    decline_rate,
    marker_table,
    mean_f1,
    paired_items,
    require_columns,
)
from labeler.prompts import CONDITIONS
from labeler.results_table import json_number
from labeler.scoring.bulk import collector_paused
from labeler.scoring.match import equivalence_classes, score_counts_many

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon


#: One item's value of an audit, JSON-shaped (a keeper stores it as JSON and reads it back).
ItemValue = list[Any]


class AuditInputs(Protocol):
    """What one item's share of an audit is computed from: a key and the answers' names.

    ``names`` are the answer names the scorer reads (with ``key``, what the lexicon's part
    of a kept value depends on); ``signature`` is the rest, as text: equal signatures (and
    lexicon) give equal values, so a keeper may return a value it kept for one.
    """

    @property
    def key(self) -> tuple[str, ...]: ...

    def names(self) -> Iterable[str]: ...

    def signature(self) -> str: ...


#: One audit's inputs type (:func:`_resolved` hands a keeper the compute of that type).
In = TypeVar("In", bound=AuditInputs)


class AuditKeeper(Protocol):
    """Keeps per-item audit values between reports (:class:`labeler.results.AuditCache`).

    :meth:`kept` returns every item's value of ``kind``: the kept ones whose inputs and
    lexicon are unchanged, and ``compute`` of the rest (one call, on just those items),
    which it may store for the next report.
    """

    def kept(
        self,
        kind: str,
        inputs: Mapping[str, In],
        compute: Callable[[Mapping[str, In], Lexicon | None], dict[str, ItemValue]],
        lexicon: Lexicon | None,
    ) -> dict[str, ItemValue]: ...


@dataclass(frozen=True, slots=True)
class ConsensusInputs:
    """One item's consensus inputs: its key and its answers as ``(model, names)``, in row order."""

    key: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]

    def names(self) -> Iterable[str]:
        return dict.fromkeys(chain.from_iterable(names for _, names in self.rows))

    def signature(self) -> str:
        return json.dumps([self.key, self.rows], ensure_ascii=False)


#: The kind of a kept consensus value (bump the number when the computation changes).
CONSENSUS = "consensus-1"
#: The kind of a kept shuffled-key value (as :data:`CONSENSUS`).
SHUFFLED = "shuffled-key-1"


def consensus_names(
    df: pd.DataFrame, lexicon: Lexicon | None = None, keeper: AuditKeeper | None = None
) -> pd.DataFrame:
    """Names produced by ≥ 2 models for one item, and whether the key has them.

    Names are pooled across conditions and merged by the scorer's own
    equivalence (so ``alveoli`` and ``alveolus`` from two models are one
    consensus name; fuzzy neighbours stay apart, as in scoring). ``in_key`` uses
    the full scorer, fuzzy included. Columns: ``item_id, name, n_models, in_key``.

    Each item's records are a function of its key and answers alone
    (:func:`consensus_records`), so a ``keeper`` may supply the ones it kept.
    """
    require_columns(df, "item_id", "model", "predicted_names", "key_names")
    columns = (df[c].tolist() for c in ("item_id", "model", "predicted_names"))
    keys = _first_keys(df)
    rows: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for item_id, model, predicted in zip(*columns, strict=True):  # lists: no per-value boxing
        rows.setdefault(item_id, []).append((model, _names_tuple(predicted)))
    inputs = {i: ConsensusInputs(tuple(keys[i]), tuple(rows[i])) for i in sorted(rows)}
    found = _resolved(CONSENSUS, inputs, consensus_records, lexicon, keeper)
    records = [(item_id, *record) for item_id in inputs for record in found[item_id]]
    return pd.DataFrame.from_records(records, columns=["item_id", "name", "n_models", "in_key"])


def consensus_records(
    inputs: Mapping[str, ConsensusInputs], lexicon: Lexicon | None = None
) -> dict[str, ItemValue]:
    """Per item: its consensus names as ``[name, n_models, in_key]``, in class order.

    Per item, each model's names are pooled as a set, so a name's model count is a
    count over those sets (C work, not a step per name per answer); a class of several
    names (rare) counts the models whose set meets it. ``in_key`` of every item's
    names is one batch of the scorer.
    """
    records: list[tuple[str, str, int]] = []
    for item_id, given in inputs.items():
        by_model: dict[str, set[str]] = {}
        for model, answer in given.rows:
            by_model.setdefault(model, set()).update(answer)
        # classes over distinct names, in first-seen order (the order classes and their
        # first names are met in): a repeated name lands in its own class either way
        distinct = list(given.names())
        members: dict[int, list[str]] = {}
        for name, cls in zip(distinct, equivalence_classes(distinct, lexicon), strict=True):
            if cls >= 0:
                members.setdefault(cls, []).append(name)
        pooled = by_model.values()
        n_models = Counter(chain.from_iterable(pooled))
        for names in members.values():
            n = (
                n_models[names[0]]
                if len(names) == 1
                else sum(not pool.isdisjoint(names) for pool in pooled)
            )
            if n >= 2:
                records.append((item_id, names[0], n))
    # one name scores above 0 exactly when the scorer matches it to a key name
    singles: dict[tuple[str], int] = {}
    items: dict[str, int] = {}
    pairs = [
        (singles.setdefault((name,), len(singles)), items.setdefault(item_id, len(items)))
        for item_id, name, _ in records
    ]
    scores = score_counts_many(list(singles), [inputs[i].key for i in items], pairs, lexicon)
    out: dict[str, ItemValue] = {item_id: [] for item_id in inputs}
    for (item_id, name, n), counts in zip(records, scores, strict=True):
        out[item_id].append([name, n, counts[0] > 0])
    return out


def _resolved(
    kind: str,
    inputs: Mapping[str, In],
    compute: Callable[[Mapping[str, In], Lexicon | None], dict[str, ItemValue]],
    lexicon: Lexicon | None,
    keeper: AuditKeeper | None,
) -> dict[str, ItemValue]:
    """Every item's value of one audit: from ``keeper`` where it has one, else computed."""
    if keeper is None:
        return compute(inputs, lexicon)
    return keeper.kept(kind, inputs, compute, lexicon)


def _names_tuple(names: Sequence[str] | None) -> tuple[str, ...]:
    """An answer's names as a hashable tuple (a project's already are; results.jsonl's are
    lists; a missing list is no names)."""
    return names if type(names) is tuple else tuple(names or ())


def _first_keys(df: pd.DataFrame) -> dict[str, Sequence[str]]:
    """item → its key's names (the first row's: every row of an item carries the same key)."""
    keys: dict[str, Sequence[str]] = df.groupby("item_id")["key_names"].first().to_dict()
    return keys


def consensus_absent_share(df: pd.DataFrame, lexicon: Lexicon | None = None) -> float:
    """Share (%) of consensus names that are absent from the key (the card: 31%)."""
    return _absent_share(consensus_names(df, lexicon))


def _absent_share(names: pd.DataFrame) -> float:
    return float((~names["in_key"]).mean() * 100) if len(names) else float("nan")


def derangement(items: list[str], seed: int = 0) -> dict[str, str]:
    """A seeded map item → another item, no item mapped to itself (Sattolo's cycle)."""
    if len(items) < 2:
        raise ValueError("the shuffled-key control needs at least two items")
    rng = np.random.default_rng(seed)
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.integers(0, i))
        order[i], order[j] = order[j], order[i]
    return {order[i]: order[(i + 1) % len(order)] for i in range(len(order))}


def literal_f1(predicted: list[str], key: list[str]) -> float:
    """Set F1 on literal names (case and spacing ignored, no other rule): plain overlap.

    Deliberately independent of the scorer, so the shuffled-key control can
    subtract what two keys simply share from what the scorer credits.
    """
    return _set_f1(_literal(predicted), _literal(key))


def _literal(names: Sequence[str]) -> frozenset[str]:
    return frozenset(" ".join(n.casefold().split()) for n in names if n.strip())


def _literal_sets(answers: Iterable[tuple[str, ...]]) -> dict[tuple[str, ...], frozenset[str]]:
    """:func:`_literal` of each distinct answer, each distinct name folded once."""
    folded: dict[str, str] = {}
    out: dict[tuple[str, ...], frozenset[str]] = {}
    for names in answers:
        if names in out:
            continue
        for name in names:
            if name not in folded:
                folded[name] = " ".join(name.casefold().split())  # a blank name folds to ""
        out[names] = frozenset(map(folded.__getitem__, names)) - _BLANK
    return out


_BLANK = frozenset([""])


def _set_f1(p: frozenset[str], k: frozenset[str]) -> float:
    tp = len(p & k)
    return 2 * tp / (len(p) + len(k)) if tp else 0.0


@dataclass(frozen=True, slots=True)
class ShuffledInputs:
    """One item's shuffled-key inputs: the other item's key it is paired with and the item's
    distinct answers (first-seen order)."""

    key: tuple[str, ...]
    answers: tuple[tuple[str, ...], ...]

    def names(self) -> Iterable[str]:
        return dict.fromkeys(chain.from_iterable(self.answers))

    def signature(self) -> str:
        return json.dumps([self.key, self.answers], ensure_ascii=False)


def shuffled_key_scores(
    df: pd.DataFrame,
    lexicon: Lexicon | None = None,
    seed: int = 0,
    keeper: AuditKeeper | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every answer scored against another item's key: ``(excess, overlap)``, mean % per
    model × condition.

    ``overlap`` is the literal-name F1 against that key: the vocabulary the two
    keys' parts share, which an answer may legitimately name (an answer naming
    "nucleus" is right about any cell diagram whose key has a nucleus). It is a
    property of the dataset, not of the scorer, and an answer built from other
    items' keys (the ``baseline/subject-prior`` model) scores high on it.
    ``excess`` is the scorer's F1 minus that overlap: credit the scorer's own
    rules (plurals, synonyms, fuzzy matching, parsing) give against a key the
    answer was not about. That is the control: a sound scorer keeps it near
    zero, a lenient one does not (``docs/decisions/0011-which-answers-count.md``).

    Each item's scores are a function of its distinct answers and the key it is paired
    with (:func:`shuffled_pair_scores`), so a ``keeper`` may supply the ones it kept.
    """
    require_columns(df, "item_id", "model", "condition", "predicted_names", "key_names")
    keys = _first_keys(df)
    other = derangement(sorted(keys), seed)
    # each row as (item, the number of its answer among the item's distinct answers)
    distinct: dict[str, dict[tuple[str, ...], int]] = {item: {} for item in keys}
    rows = df["item_id"].tolist()
    numbers = [
        (answers := distinct[item]).setdefault(_names_tuple(names), len(answers))
        for item, names in zip(rows, df["predicted_names"].tolist(), strict=True)
    ]
    inputs = {
        item: ShuffledInputs(tuple(keys[other[item]]), tuple(answers))
        for item, answers in distinct.items()
    }
    found = _resolved(SHUFFLED, inputs, shuffled_pair_scores, lexicon, keeper)
    pair = [found[item][n] for item, n in zip(rows, numbers, strict=True)]
    scored = np.array([p[0] for p in pair], dtype=float)
    overlap = np.array([p[1] for p in pair], dtype=float)
    frame = df[["model", "condition"]]
    excess = mean_f1(frame.assign(f1=scored - overlap))
    return excess, mean_f1(frame.assign(f1=overlap))


def shuffled_pair_scores(
    inputs: Mapping[str, ShuffledInputs], lexicon: Lexicon | None = None
) -> dict[str, ItemValue]:
    """Per item: ``[scorer F1, literal overlap]`` of each of its answers against its key.

    Answers repeat names across conditions, models and items sharing a key, so each
    distinct ``(answer, key)`` pair of all the items is scored once, in one batch of the
    scorer, and numbers hash far faster than tuples of names.
    """
    answer_ids: dict[tuple[str, ...], int] = {}
    key_ids: dict[tuple[str, ...], int] = {}
    pair_ids: dict[tuple[int, int], int] = {}
    item_pairs = {
        item: [
            pair_ids.setdefault(
                (
                    answer_ids.setdefault(a, len(answer_ids)),
                    key_ids.setdefault(i.key, len(key_ids)),
                ),
                len(pair_ids),
            )
            for a in i.answers
        ]
        for item, i in inputs.items()
    }
    answers, key_lists, pairs = list(answer_ids), list(key_ids), list(pair_ids)
    counts = score_counts_many(answers, key_lists, pairs, lexicon)
    literal = _literal_sets(chain(key_lists, answers))
    overlaps = [_set_f1(literal[answers[a]], literal[key_lists[k]]) for a, k in pairs]
    values = [[c[0], o] for c, o in zip(counts, overlaps, strict=True)]
    return {item: [values[p] for p in numbered] for item, numbered in item_pairs.items()}


def shuffled_key_control(
    df: pd.DataFrame, lexicon: Lexicon | None = None, seed: int = 0
) -> pd.DataFrame:
    """The scorer audit: mean excess F1 (%) over literal overlap against another item's key
    (:func:`shuffled_key_scores`). Near zero for a sound scorer.
    """
    return shuffled_key_scores(df, lexicon, seed)[0]


def audits(
    df: pd.DataFrame,
    lexicon: Lexicon | None = None,
    seed: int = 0,
    keeper: AuditKeeper | None = None,
) -> dict[str, Any]:
    """The card's audits, as plain data: what ``labeler report`` prints after the table.

    ``decline_rate`` (finding 6) maps model → condition → % of answers that
    decline; ``consensus_absent_share`` (finding 7) is the % of consensus names
    absent from the key, with ``consensus_names`` counting them;
    ``shuffled_key_control`` (the scorer audit) maps model → condition → mean
    F1 (%) the scorer gives against another item's key beyond the literal name
    overlap, and ``shuffled_key_overlap`` that overlap (:func:`shuffled_key_scores`).
    ``paired_items`` maps model → the number of items grounded and recited are
    taken over; ``marker_accuracy`` maps model → condition → mean marker
    accuracy (%) over items with markers. An entry whose inputs the rows lack
    (names, two items to shuffle, marker scores) is ``None``, never a made-up zero.

    The scoring work of the consensus and shuffled-key audits is per item; a ``keeper``
    (a project's :class:`labeler.results.AuditCache`) keeps it between reports.
    """
    with collector_paused():  # a bulk pass over every answer (labeler.scoring.bulk)
        return _audits(df, lexicon, seed, keeper)


def _audits(
    df: pd.DataFrame, lexicon: Lexicon | None, seed: int, keeper: AuditKeeper | None
) -> dict[str, Any]:
    has_names = {"predicted_names", "key_names"} <= set(df.columns)
    can_decline = "raw_text" in df.columns or "predicted_names" in df.columns
    consensus = consensus_names(df, lexicon, keeper) if has_names else None
    shuffled = (
        shuffled_key_scores(df, lexicon, seed, keeper)
        if has_names and df["item_id"].nunique() >= 2
        else None
    )
    markers = marker_table(df)
    return {
        "paired_items": {str(m): int(n) for m, n in paired_items(df).items()},
        "decline_rate": _nested(decline_rate(df)) if can_decline else None,
        "consensus_names": None if consensus is None else len(consensus),
        "consensus_absent_share": None
        if consensus is None
        else json_number(_absent_share(consensus)),
        "shuffled_key_control": None if shuffled is None else _nested(shuffled[0]),
        "shuffled_key_overlap": None if shuffled is None else _nested(shuffled[1]),
        "marker_accuracy": None if markers is None else _nested(markers),
    }


def _nested(table: pd.DataFrame) -> dict[str, dict[str, float | None]]:
    """model → condition → value, NaN (not run) as ``None``."""
    return {
        str(model): {c: json_number(row[c]) for c in CONDITIONS}
        for model, row in table.reindex(columns=list(CONDITIONS)).iterrows()
    }
