"""The results metrics over a per-cell frame: means, paired bootstrap CIs, markers, declines.

Conventions follow the dataset card: F1 in percent, ``grounded = told − no-image``
in percentage *points*, ``recited = no-image ÷ told`` as a *percentage*; a
condition that was not run is NaN (shown as ``—``), never zero, and so is a share
whose ``told`` is 0.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import numpy.typing as npt
import pandas as pd

from labeler.prompts import CONDITIONS
from labeler.results_table import TableRow
from labeler.results_table import results_table as plain_table

#: A float array: an items × metrics matrix of scores, or one value per metric.
Floats = npt.NDArray[np.float64]

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


def require_columns(df: pd.DataFrame, *columns: str) -> None:
    """Fail with the names of the columns a function reads that ``df`` lacks (not a KeyError
    from deep inside pandas)."""
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"results are missing column(s): {', '.join(missing)}")


def mean_f1(df: pd.DataFrame) -> pd.DataFrame:
    """Mean F1 (%) per model (rows) × condition (columns, all four, NaN if not run)."""
    require_columns(df, "model", "condition", "f1")
    table = df.pivot_table(index="model", columns="condition", values="f1", aggfunc="mean")
    return (table * 100).reindex(columns=list(CONDITIONS))


def paired_items(df: pd.DataFrame) -> pd.Series:
    """Per model: how many items have both a told and a no-image row (what grounded pairs)."""
    require_columns(df, "item_id", "model", "condition")
    pair = df[df["condition"].isin(("told", "no-image"))]
    both = pair.groupby(["model", "item_id"])["condition"].nunique() == 2
    counts = both.groupby(level="model").sum() if len(both) else pd.Series(dtype=int)
    return counts.reindex(df["model"].unique(), fill_value=0).astype(int)


def results_table(df: pd.DataFrame) -> list[TableRow]:
    """The card's results table over a results frame (:func:`labeler.results_table.results_table`:
    plain Python, exact sums, the rows the card renders)."""
    require_columns(df, "item_id", "model", "condition", "f1")
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
    require_columns(df, "item_id", "model", "condition", "f1")
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
    matrix: Floats, rng: np.random.Generator, n_boot: int = 2000, level: float = 0.95
) -> tuple[Floats, Floats, Floats]:
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


def _resampled_means(matrix: Floats, draws: npt.NDArray[np.int64]) -> Floats:
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
    means: Floats = (counts @ np.where(known, matrix, 0.0)) / (counts @ known.astype(float))
    return means


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
