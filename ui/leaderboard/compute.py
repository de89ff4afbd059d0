"""The leaderboard's numbers, computed by the core on a worker thread.

Everything here is a call into :mod:`labeler.results` (the scored cells that
export publishes) and :mod:`labeler.analysis` (the card's table and columns,
bootstrap CIs, per-item flags and best scores); this module only gathers the
pieces the view shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from labeler import analysis
from labeler.results import ScoredCell, load_results, results_frame
from labeler.store import Project

METRICS = analysis.TABLE_COLUMNS[1:]  # the card's table, less its "model" column


@dataclass(frozen=True)
class ModelRow:
    """One model's line of the card's results table (NaN where a condition was not run)."""

    model: str
    values: dict[str, float]  # metric -> value (F1 %, grounded points, recited %)
    cis: dict[str, tuple[float, float]]  # metric -> (lo, hi), where the core gives one


@dataclass(frozen=True)
class ItemFlag:
    """One item's flags, with its best F1 to show why."""

    item_id: str
    label: str  # public ID when numbered, else the internal id
    subject: str
    recitable: bool
    unsolved_core: bool
    best_f1: float
    best_no_image: float


@dataclass(frozen=True)
class Leaderboard:
    """What the Leaderboard view shows."""

    rows: list[ModelRow]
    items: list[ItemFlag]
    n_answers: int
    n_unanswered: int


def compute(folder: Path, n_boot: int = 2000) -> Leaderboard:
    """Score the project and build the table, CIs and flags (opens its own connection)."""
    with Project.open(folder) as project:
        cells = load_results(project)
    answered = [c for c in cells if c.answered]
    if not answered:
        return Leaderboard([], [], 0, len(cells))
    frame = results_frame(answered)
    table = analysis.results_table(frame)
    cis = analysis.bootstrap_ci(frame, n_boot=n_boot)
    bounds: dict[str, dict[str, tuple[float, float]]] = {}
    for record in cis.itertuples(index=False):
        if not (math.isnan(record.lo) or math.isnan(record.hi)):
            bounds.setdefault(record.model, {})[record.metric] = (record.lo, record.hi)
    rows = [
        ModelRow(
            model=record["model"],
            values={m: float(record[m]) for m in METRICS},
            cis=bounds.get(record["model"], {}),
        )
        for record in table.to_dict("records")
    ]
    return Leaderboard(rows, _item_flags(answered), len(answered), len(cells) - len(answered))


def _item_flags(cells: list[ScoredCell]) -> list[ItemFlag]:
    """The core's per-item summary over the current cells (those the flags count)."""
    current = [c for c in cells if c.current]
    if not current:
        return []
    summary = analysis.item_summary(results_frame(current))
    first: dict[str, ScoredCell] = {}
    for c in current:
        first.setdefault(c.item_id, c)
    return [
        ItemFlag(
            item_id=item_id,
            label=c.public_id or item_id,
            subject=c.subject,
            recitable=bool(summary.at[item_id, "recitable"]),
            unsolved_core=bool(summary.at[item_id, "unsolved_core"]),
            best_f1=float(summary.at[item_id, "best_f1"]),
            best_no_image=float(summary.at[item_id, "best_no_image"]),
        )
        for item_id, c in first.items()
    ]
