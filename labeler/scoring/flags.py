"""The card's per-item flags, which are functions of the F1s alone.

They sit with the scorer (not the analysis above it) because rescoring must
refresh them: a rescored row with a stale ``unsolved_core`` would contradict its
own scores. :mod:`labeler.analysis` re-exports the frame functions.

The rule is given twice, over a frame (:func:`item_summary`, for the views and the
report, which hold frames) and over plain columns (:func:`column_flags`, for the
export and for rescoring a results file, which must not pay for importing pandas); both
read the thresholds below and ``tests/scoring/test_flags.py`` holds them to the same answers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

#: ``recitable``: some model's F1 with no image at least this.
RECITABLE_F1 = 0.5
#: ``unsolved_core``: no model's F1 reached this (1.0, less rounding) in any condition.
SOLVED_F1 = 1.0 - 1e-9
NO_IMAGE = "no-image"


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
    import pandas as pd

    _require(df, "item_id", "condition", "f1")
    best = df.groupby("item_id")["f1"].max()
    no_image = df[df["condition"] == NO_IMAGE].groupby("item_id")["f1"].max()
    summary = pd.DataFrame(index=best.index)
    summary["best_f1"] = best.astype(float)
    summary["best_no_image"] = no_image.reindex(best.index).astype(float)
    summary["recitable"] = (summary["best_no_image"] >= RECITABLE_F1).fillna(False).astype(bool)
    summary["unsolved_core"] = best < SOLVED_F1
    return summary


def item_flags(df: pd.DataFrame) -> pd.DataFrame:
    """Per item: the card's ``recitable`` and ``unsolved_core`` flags (see :func:`item_summary`)."""
    return item_summary(df)[["recitable", "unsolved_core"]]


def column_flags(
    item_ids: Iterable[str], conditions: Iterable[str], f1s: Iterable[float]
) -> dict[str, tuple[bool, bool]]:
    """:func:`item_flags` over three parallel columns: item id -> ``(unsolved_core,
    recitable)``, for every item with a cell, in one pass and no frame.

    A NaN F1 is skipped as the frame's ``max`` skips it (an item whose F1s are all NaN has
    an entry with both flags false, as there).
    """
    nan = math.nan
    best: dict[str, float] = {}
    no_image: dict[str, float] = {}
    for item, condition, f1 in zip(item_ids, conditions, f1s, strict=True):
        top = best.get(item, nan)
        if f1 > top or top != top:  # top != top: nothing but NaN yet
            best[item] = f1
        if condition == NO_IMAGE:
            top = no_image.get(item, nan)
            if f1 > top or top != top:
                no_image[item] = f1
    return {
        item: (top < SOLVED_F1, no_image.get(item, nan) >= RECITABLE_F1)
        for item, top in best.items()
    }
