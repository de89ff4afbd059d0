"""Each item's mean F1 over its counted model answers, for the item list's score column.

The scores come from ``labeler.results.counted_results`` — the cells that count
(latest, not stale, answered), the same ones the leaderboard, ``labeler report``
and the export use — so the number in the list is the number that gets published.
"""

from __future__ import annotations

import math
from collections import defaultdict

from labeler.results import counted_results
from labeler.store import Project


def item_scores(project: Project) -> dict[str, float]:
    """Item id -> mean F1 over its counted (model, condition) cells; items with none absent."""
    by_item: dict[str, list[float]] = defaultdict(list)
    for cell in counted_results(project):
        by_item[cell.item_id].append(cell.f1)
    return {item_id: math.fsum(v) / len(v) for item_id, v in by_item.items()}
