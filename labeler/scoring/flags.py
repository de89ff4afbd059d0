"""The card's per-item flags, which are functions of the F1s alone.

They sit with the scorer (not the analysis above it) because rescoring must
refresh them: a rescored row with a stale ``unsolved_core`` would contradict its
own scores. :mod:`labeler.analysis` re-exports both functions.
"""

from __future__ import annotations

import pandas as pd


def _require(df: pd.DataFrame, *columns: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"results are missing column(s): {', '.join(missing)}")


def item_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per item: its best F1 (``best_f1``), best no-image F1 (``best_no_image``, NaN if
    never run without the image) and the card's two flags built from them.

    ``recitable``: some model F1 ≥ 0.5 with no image; ``unsolved_core``: no model
    ever scored 1.0 in any condition. Views show the best scores as the reason
    for a flag, so both come from this one place.
    """
    _require(df, "item_id", "condition", "f1")
    best = df.groupby("item_id")["f1"].max()
    no_image = df[df["condition"] == "no-image"].groupby("item_id")["f1"].max()
    summary = pd.DataFrame(index=best.index)
    summary["best_f1"] = best.astype(float)
    summary["best_no_image"] = no_image.reindex(best.index).astype(float)
    summary["recitable"] = (summary["best_no_image"] >= 0.5).fillna(False).astype(bool)
    summary["unsolved_core"] = best < 1.0 - 1e-9
    return summary


def item_flags(df: pd.DataFrame) -> pd.DataFrame:
    """Per item: the card's ``recitable`` and ``unsolved_core`` flags (see :func:`item_summary`)."""
    return item_summary(df)[["recitable", "unsolved_core"]]
