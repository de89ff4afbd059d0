"""The item list's rows: items passing the filters, their label counts and mean F1.

The scores are those of ``labeler.results.counted_results`` — the cells that count
(latest, not stale, answered), the same ones the leaderboard, ``labeler report``
and the export use — so the number in the list is the number that gets published;
they are read through the summary path (:func:`labeler.results.cell_summaries`: the
cached numbers as columns, no per-answer objects). Reading grows with the project
(every answer), so :func:`item_rows` runs on a worker with its own connection, never
on the GUI thread.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from labeler.results import CellSummaries, cell_summaries
from labeler.store import Item, Project

ScoreFilter = Callable[[float | None], bool]

SCORE_FILTERS: dict[str, ScoreFilter | None] = {
    "Any score": None,
    "No answers yet": lambda s: s is None,
    "F1 < 0.5": lambda s: s is not None and s < 0.5,
    "F1 ≥ 0.5": lambda s: s is not None and s >= 0.5,
}


@dataclass(frozen=True)
class ItemRows:
    """What the item list shows: the items in order, label counts and scores by item id."""

    items: list[Item]
    counts: dict[str, int]
    scores: dict[str, float]


def item_scores(cells: CellSummaries) -> dict[str, float]:
    """Item id -> mean F1 over its counted (model, condition) cells; items with none absent."""
    by_item: dict[str, list[float]] = defaultdict(list)
    for item_id, f1, counts in zip(cells.item_id, cells.f1, cells.counts, strict=True):
        if counts:
            by_item[item_id].append(f1)
    return {item_id: math.fsum(v) / len(v) for item_id, v in by_item.items()}


def item_rows(
    folder: Path, search: str, filters: dict[str, str | None], score_filter: str
) -> ItemRows:
    """The items passing the store's ``filters`` and ``search`` and one of :data:`SCORE_FILTERS`.

    Opens its own connection: it runs on a worker thread.
    """
    with Project.open(folder) as project:
        items = project.items.list(search=search, **filters)
        summaries = cell_summaries(project)
        counts = {i: len(k) for i, k in summaries.keys.items()}
        scores = item_scores(summaries)
    accept = SCORE_FILTERS[score_filter]
    if accept is not None:
        items = [i for i in items if accept(scores.get(i.id))]
    return ItemRows(items, counts, scores)
