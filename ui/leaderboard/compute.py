"""The leaderboard's numbers, computed by the core on a worker thread.

Everything here is a call into :mod:`labeler.results` (the cells that count by
:func:`~labeler.results.answer_counts`: exactly the ones export publishes, read through
the summary path :func:`~labeler.results.cell_summaries`, as columns) and
:mod:`labeler.analysis` (the card's table and columns, bootstrap CIs, paired
item counts, marker accuracy, per-item flags and best scores); this module only
gathers the pieces the view shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from labeler import analysis
from labeler.prompts import CONDITIONS, SLOT_CONDITIONS
from labeler.results import NO_ANSWER_STATUSES, CellSummaries, cell_summaries
from labeler.slot_results import slot_frame, slot_results, slot_table
from labeler.store import Project
from ui.workers import TaskControl

METRICS = analysis.TABLE_COLUMNS[1:]  # the card's table, less its "model" column


@dataclass(frozen=True)
class ModelRow:
    """One model's line of the card's results table (NaN where a condition was not run)."""

    model: str
    values: dict[str, float]  # metric -> value (F1 %, grounded points, recited %)
    cis: dict[str, tuple[float, float]]  # metric -> (lo, hi), where the core gives one
    paired: int = 0  # items with both told and no-image: what grounded and recited compare
    markers: dict[str, float] | None = None  # condition -> marker accuracy %, items with markers


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
    n_answers: int  # answers that count (labeler.results.answer_counts)
    n_unanswered: int  # API errors: no answer from the model
    n_stale: int = 0  # answered for an older subject or image: not counted until re-run
    intervals: bool = True  # False: the CIs are still being computed
    slots: pd.DataFrame | None = None  # labeler.slot_results.slot_table; None: no slot answers


def compute(folder: Path, n_boot: int = 2000, control: TaskControl | None = None) -> Leaderboard:
    """Score the project and build the table, CIs and flags (opens its own connection).

    With ``control`` the table and flags are published first, without CIs: the
    bootstrap is most of the time on a large project, and the means are what a
    curator reads first.
    """
    with Project.open(folder) as project:
        cells = cell_summaries(project)
        # slot answers are scored per slot from their labels: only a project that has some
        slotted = [] if set(cells.condition).isdisjoint(SLOT_CONDITIONS) else slot_results(project)
    slots = slot_table(slot_frame(slotted), n_boot=n_boot) if slotted else None
    unanswered = stale = 0
    for condition, status, old in zip(cells.condition, cells.status, cells.stale, strict=True):
        if condition in CONDITIONS:  # the card's table: its four
            unanswered += status in NO_ANSWER_STATUSES
            stale += status not in NO_ANSWER_STATUSES and old
    frame = cells.frame(CONDITIONS)  # the cells that count (labeler.results.answer_counts)
    if frame.empty:
        return Leaderboard([], [], 0, unanswered, stale, slots=slots)
    table = analysis.results_table(frame)
    paired = analysis.paired_items(frame)
    markers = analysis.marker_table(frame)
    flags = _item_flags(cells, frame)

    def board(bounds: dict[str, dict[str, tuple[float, float]]], intervals: bool) -> Leaderboard:
        rows = [
            ModelRow(
                model=row.model,
                values={m: math.nan if v is None else v for m, v in row.values.items()},
                cis=bounds.get(row.model, {}),
                paired=int(paired.get(row.model, 0)),
                markers=_marker_row(markers, row.model),
            )
            for row in table
        ]
        return Leaderboard(rows, flags, len(frame), unanswered, stale, intervals, slots)

    if control is not None:
        control.publish(board({}, intervals=False))
        control.check()
    cis = analysis.bootstrap_ci(frame, n_boot=n_boot)
    bounds: dict[str, dict[str, tuple[float, float]]] = {}
    for record in cis.itertuples(index=False):
        if not (math.isnan(record.lo) or math.isnan(record.hi)):
            bounds.setdefault(record.model, {})[record.metric] = (record.lo, record.hi)
    return board(bounds, intervals=True)


def _marker_row(markers: pd.DataFrame | None, model: str) -> dict[str, float] | None:
    """One model's marker accuracy per condition (NaN where not run); None without markers."""
    if markers is None or model not in markers.index:
        return None
    return {c: float(v) for c, v in markers.loc[model].items()}


def _item_flags(cells: CellSummaries, frame: pd.DataFrame) -> list[ItemFlag]:
    """The core's per-item summary over the counted cells (``frame``), items in the order
    of their first counted answer."""
    order = list(frame["item_id"].unique())  # in order of appearance
    summary = analysis.item_summary(frame).reindex(order)
    return [
        ItemFlag(
            item_id=item_id,
            label=cells.public_ids.get(item_id) or item_id,
            subject=cells.items[item_id].subject,
            recitable=bool(recitable),
            unsolved_core=bool(unsolved),
            best_f1=float(best),
            best_no_image=float(no_image),
        )
        for item_id, recitable, unsolved, best, no_image in zip(
            order,
            summary["recitable"],
            summary["unsolved_core"],
            summary["best_f1"],
            summary["best_no_image"],
            strict=True,
        )
    ]
