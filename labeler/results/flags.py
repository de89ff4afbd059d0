"""The dataset card's per-item flags, from the counted cells.

* ``unsolved_core`` — no model solved the item (F1 = 1) in any condition;
* ``recitable`` — at least one model scored F1 >= 0.5 under ``no-image``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from labeler.scoring.bulk import collector_paused


@dataclass(frozen=True, slots=True)
class ItemFlags:
    """The card's per-item flags."""

    unsolved_core: bool
    recitable: bool


def item_flags(cells: Iterable[tuple[str, str, float]]) -> dict[str, ItemFlags]:
    """Per-item flags from ``(item_id, condition, f1)`` of every counted cell.

    The rule itself is :func:`labeler.analysis.item_flags` (one definition for
    the GUI, the CLI report and the export). An item with no answered cell has
    no entry: nobody solved it and nobody recited it.
    """
    import pandas as pd

    from labeler.analysis import item_flags as frame_flags

    with collector_paused():  # the caller's generator may read 100k cells: no collections
        rows = list(cells)
        if not rows:
            return {}
        item_ids, conditions, f1s = zip(*rows, strict=True)  # columns, not a row per cell
        frame = pd.DataFrame({"item_id": item_ids, "condition": conditions, "f1": f1s})
        flags = frame_flags(frame)
    return {
        item_id: ItemFlags(unsolved_core=bool(unsolved), recitable=bool(recitable))
        for item_id, unsolved, recitable in zip(
            flags.index, flags["unsolved_core"], flags["recitable"], strict=True
        )
    }
