"""The BLINDSPOT analysis over a results DataFrame (one row per item × model × condition).

Input columns: ``item_id, model, condition, f1`` and, for the functions that
need names, ``predicted_names, key_names``; ``raw_text`` is optional (decline
rate). Everything here is a pure function of the frame, so the CLI, the GUI
and export produce the same numbers. Conventions follow the dataset card:
F1 in percent, ``grounded = told − no-image`` in percentage *points*,
``recited = no-image ÷ told`` as a *percentage*; a condition that was not run
is NaN (shown as ``—``), never zero, and so is a share whose ``told`` is 0.

Which rows are in the frame is not decided here: callers pass the cells that
count (:func:`labeler.results.counted_results`, or an export's results.jsonl,
which holds only those).
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np
import pandas as pd

from labeler.prompts import CONDITIONS
from labeler.results_table import TABLE_COLUMNS as TABLE_COLUMNS  # re-exported for the views
from labeler.results_table import TableRow, cell_text, json_models, json_number, markdown_lines
from labeler.results_table import results_table as plain_table
from labeler.scoring.bulk import collector_paused
from labeler.scoring.flags import item_flags as item_flags  # re-exported: the rule lives below
from labeler.scoring.flags import item_summary as item_summary
from labeler.scoring.match import equivalence_classes, score_counts_many

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon

_TOLD, _NO_IMAGE = CONDITIONS.index("told"), CONDITIONS.index("no-image")

#: Answers that refuse, or say there is no image to look at.
DECLINE_RE = re.compile(
    r"(?:cannot|can['’]t|can ?not|unable to|not able to)\s+(?:\w+\s+){0,3}?"
    r"(?:see|view|identify|label|access|determine|help|assist|comply|provide|answer|analy[sz]e)"
    r"|\bi(?:['’]m| am) sorry\b"
    r"|\bno (?:image|diagram|figure|picture)\b"
    r"|without (?:the|an|seeing the) (?:image|diagram|figure)"
    r"|(?:image|diagram|figure|picture) (?:is|was|has not been|hasn['’]t been|wasn['’]t|isn['’]t) "
    r"(?:not )?(?:provided|attached|included|shared|visible|available)"
    r"|(?:don['’]t|do not) see (?:an?|the|any) (?:image|diagram|figure|picture)",
    re.IGNORECASE,
)


def _require(df: pd.DataFrame, *columns: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"results are missing column(s): {', '.join(missing)}")


def mean_f1(df: pd.DataFrame) -> pd.DataFrame:
    """Mean F1 (%) per model (rows) × condition (columns, all four, NaN if not run)."""
    _require(df, "model", "condition", "f1")
    table = df.pivot_table(index="model", columns="condition", values="f1", aggfunc="mean")
    return (table * 100).reindex(columns=list(CONDITIONS))


def paired_items(df: pd.DataFrame) -> pd.Series:
    """Per model: how many items have both a told and a no-image row (what grounded pairs)."""
    _require(df, "item_id", "model", "condition")
    pair = df[df["condition"].isin(("told", "no-image"))]
    both = pair.groupby(["model", "item_id"])["condition"].nunique() == 2
    counts = both.groupby(level="model").sum() if len(both) else pd.Series(dtype=int)
    return counts.reindex(df["model"].unique(), fill_value=0).astype(int)


def results_table(df: pd.DataFrame) -> list[TableRow]:
    """The card's results table over a results frame (:func:`labeler.results_table.results_table`:
    plain Python, exact sums, the rows the card renders)."""
    _require(df, "item_id", "model", "condition", "f1")
    columns = (df[c].tolist() for c in ("item_id", "model", "condition", "f1"))
    return plain_table(zip(*columns, strict=True))


def bootstrap_ci(
    df: pd.DataFrame, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Paired bootstrap CIs over items, per model: each condition's mean and ``grounded``.

    Items are resampled once per replicate and the same draw is used for every
    condition, so ``grounded`` keeps each item's told/no-image pairing (only
    items run under both count for it). Seeded: the same call gives the same CIs.
    Columns: ``model, metric, estimate, lo, hi`` (F1 in %, grounded in points).

    Per model (in sorted order) one ``n_boot × n_items`` index matrix is drawn from
    one generator seeded with ``seed`` — the draws this function has always made.
    A replicate's mean is then a weighted mean, each item weighted by how many
    times it was drawn: one matrix product (:func:`_resampled_means`) instead of
    materialising ``n_boot × n_items`` copies of the scores (at 100k answers the
    copies cost seconds; the product, milliseconds).
    """
    _require(df, "item_id", "model", "condition", "f1")
    rng = np.random.default_rng(seed)
    # one pivot for every model: index (model, item_id), sorted as each model's own would be
    wide_all = df.pivot_table(
        index=["model", "item_id"], columns="condition", values="f1", aggfunc="mean"
    ).reindex(columns=list(CONDITIONS))
    records = []
    for model, wide in wide_all.groupby(level="model", sort=True):
        scores = wide.to_numpy(dtype=float) * 100
        matrix = np.column_stack([scores, scores[:, _TOLD] - scores[:, _NO_IMAGE]])  # grounded
        estimates, lo, hi = paired_bootstrap(matrix, rng, n_boot, level)
        for j, metric in enumerate((*CONDITIONS, "grounded")):
            records.append((model, metric, estimates[j], lo[j], hi[j]))
    return pd.DataFrame.from_records(records, columns=["model", "metric", "estimate", "lo", "hi"])


def paired_bootstrap(
    matrix: np.ndarray, rng: np.random.Generator, n_boot: int = 2000, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Column means of ``matrix`` (items × metrics, NaN: not run) and their bootstrap CI.

    Rows (items) are resampled once per replicate for every column together, so a column
    that is a per-item difference keeps its pairing. Returns ``(estimates, lo, hi)``.
    """
    tail = (1 - level) / 2 * 100
    draws = rng.integers(0, len(matrix), size=(n_boot, len(matrix)))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: condition not run
        sampled = _resampled_means(matrix, draws)
        estimates = np.nanmean(matrix, axis=0)
        lo, hi = np.nanpercentile(sampled, [tail, 100 - tail], axis=0)
    return estimates, lo, hi


def _resampled_means(matrix: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """``nanmean(matrix[draws], axis=1)`` without building it: one row per replicate.

    ``counts[b, i]`` is how often replicate ``b`` drew item ``i``; the replicate's
    mean of a column is the count-weighted sum of its known values over the
    count of known values drawn (NaN, as ``nanmean``, when none was drawn).
    """
    n_boot, n_items = draws.shape
    offsets = draws + (np.arange(n_boot) * n_items)[:, None]
    counts = np.bincount(offsets.ravel(), minlength=n_boot * n_items).reshape(n_boot, n_items)
    counts = counts.astype(float)
    known = ~np.isnan(matrix)
    return (counts @ np.where(known, matrix, 0.0)) / (counts @ known.astype(float))


def marker_table(df: pd.DataFrame) -> pd.DataFrame | None:
    """Mean marker accuracy (%) per model × condition over the rows of items with markers.

    ``marker_accuracy`` is 0–1 on rows whose item has named markers and NaN (or
    None) elsewhere; ``None`` when no row has it (an export's results.jsonl does
    not carry the location hints it needs, so the report needs the project).
    """
    if "marker_accuracy" not in df.columns:
        return None
    marked = df[pd.to_numeric(df["marker_accuracy"], errors="coerce").notna()]
    if marked.empty:
        return None
    table = marked.assign(_acc=marked["marker_accuracy"].astype(float) * 100).pivot_table(
        index="model", columns="condition", values="_acc", aggfunc="mean"
    )
    return table.reindex(columns=list(CONDITIONS))


def declined(df: pd.DataFrame) -> pd.Series:
    """Per row: did the answer decline?

    With ``raw_text`` the decline regex decides (an empty answer can also be a
    truncated one — the readout audit's lesson — so emptiness alone is not a
    decline when the text is known). Without raw text the only evidence is an
    empty prediction, used as a proxy.
    """
    empty = df["predicted_names"].map(lambda v: not v) if "predicted_names" in df else None
    if "raw_text" in df.columns:
        text = df["raw_text"]
        by_text = text.map(lambda t: bool(DECLINE_RE.search(t)) if isinstance(t, str) else False)
        if empty is None:
            return by_text
        return by_text.where(text.map(lambda t: isinstance(t, str)), empty)
    if empty is None:
        raise ValueError("decline rate needs 'raw_text' or 'predicted_names'")
    return empty


def decline_rate(df: pd.DataFrame) -> pd.DataFrame:
    """Share of answers that decline (%), per model × condition."""
    flagged = df.assign(_declined=declined(df).astype(float) * 100)
    table = flagged.pivot_table(
        index="model", columns="condition", values="_declined", aggfunc="mean"
    )
    return table.reindex(columns=list(CONDITIONS))


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
    _require(df, "item_id", "model", "predicted_names", "key_names")
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
    return df.groupby("item_id")["key_names"].first().to_dict()


def consensus_absent_share(df: pd.DataFrame, lexicon: Lexicon | None = None) -> float:
    """Share (%) of consensus names that are absent from the key (the card: 31%)."""
    return _absent_share(consensus_names(df, lexicon))


def _absent_share(names: pd.DataFrame) -> float:
    return float((~names["in_key"]).mean() * 100) if len(names) else float("nan")


def derangement(items: list, seed: int = 0) -> dict:
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
    _require(df, "item_id", "model", "condition", "predicted_names", "key_names")
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
) -> dict:
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
) -> dict:
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


# -- rendering -------------------------------------------------------------------


def render_markdown(table: Sequence[TableRow], audit: dict | None = None) -> str:
    """The card's markdown table (:func:`labeler.results_table.markdown_lines`), followed by
    an "Audits" section when ``audit`` (from :func:`audits`) is given."""
    lines = markdown_lines(table)
    if audit is not None:
        lines += _audit_lines(audit)
    return "\n".join(lines) + "\n"


def _audit_lines(audit: dict) -> list[str]:
    paired = ", ".join(f"{m} {n}" for m, n in audit["paired_items"].items())
    lines = [
        "",
        f"grounded and recited compare told with no-image on the same items; items paired: "
        f"{paired or 'none'}",
        "",
        "Marker accuracy — % of the key's marker letters given the right name "
        "(items with markers):",
        "",
    ]
    markers = audit["marker_accuracy"]
    lines += _condition_table(markers) if markers else ["(no item with markers, or no project)"]
    lines += ["", "## Audits", ""]
    share = audit["consensus_absent_share"]
    sections = (
        (
            "Decline rate — % of answers that refuse or say there is no image",
            "decline_rate",
            "(needs answer names or raw text)",
        ),
        (
            "Shuffled-key control — scorer F1 against another item's key beyond the names the "
            "two keys literally share (a sound scorer is near 0)",
            "shuffled_key_control",
            "(needs answer names and at least two items)",
        ),
        (
            "Shared vocabulary — literal-name F1 against another item's key (dataset overlap, "
            "not a scorer fault)",
            "shuffled_key_overlap",
            "(needs answer names and at least two items)",
        ),
    )
    for title, name, missing in sections:
        lines += [f"{title}:", ""]
        lines += _condition_table(audit[name]) if audit[name] else [missing]
        lines.append("")
    consensus = (
        "(needs answer names)"
        if audit["consensus_names"] is None
        else (
            f"{cell_text(share, 'recited')} of {audit['consensus_names']} names given by ≥ 2 models"
        )
    )
    lines.append(f"Consensus names absent from the key: {consensus}")
    return lines


def _condition_table(values: dict[str, dict[str, float | None]]) -> list[str]:
    lines = ["| Model | " + " | ".join(CONDITIONS) + " |", "|" + "---|" * (len(CONDITIONS) + 1)]
    for model, row in values.items():
        cells = [cell_text(row[c], c) for c in CONDITIONS]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return lines


def render_json(
    table: Sequence[TableRow], cis: pd.DataFrame | None = None, audit: dict | None = None
) -> str:
    """Strict JSON (no NaN/Infinity): ``{"models": [...], "audits": {...}}``.

    ``models`` has one object per table row; ``ci`` maps each condition and
    grounded to [lo, hi]. ``audits`` (from :func:`audits`) is present when given.
    Undefined numbers are ``null``.
    """
    models: list[dict] = json_models(table)
    if cis is not None:
        for entry in models:
            mine = cis[cis["model"] == entry["model"]]
            entry["ci"] = {
                m: None if json_number(lo) is None else [json_number(lo), json_number(hi)]
                for m, lo, hi in zip(mine["metric"], mine["lo"], mine["hi"], strict=True)
            }
    out: dict = {"models": models}
    if audit is not None:
        out["audits"] = audit
    return json.dumps(out, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
