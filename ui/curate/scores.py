"""Each item's mean F1 over its latest model answers, for the item list's filter.

The scores come from ``labeler.results.load_results`` — the same scored cells
the Review matrix, the leaderboard and the export use — so the number in the
list is the number that gets published.
"""

from __future__ import annotations

import math
from collections import defaultdict

from labeler.results import load_results
from labeler.store import Project


def item_scores(project: Project) -> dict[str, float]:
    """Item id -> mean F1 over every answered (model, condition) cell; unanswered items absent."""
    by_item: dict[str, list[float]] = defaultdict(list)
    for cell in load_results(project):
        if cell.answered:
            by_item[cell.item_id].append(cell.f1)
    return {item_id: math.fsum(v) / len(v) for item_id, v in by_item.items()}
