"""The Leaderboard's slot table: per model, slot accuracy under ``slots`` and
``slots-no-image``, the gap between them (points), chance level and name-set F1 minus slot
accuracy on the same answers, each with its paired bootstrap CI
(:func:`labeler.slot_results.slot_table`, the numbers ``labeler report`` prints)."""

from __future__ import annotations

import math

import pandas as pd
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

from labeler.slot_results import SLOT_METRICS

HEADERS = {
    "slots": "slots",
    "slots-no-image": "slots-no-image",
    "slot_gap": "gap (pts)",
    "chance": "chance",
    "f1_minus_slots": "F1 − slots",
}
TIPS = {
    "slots": "slot accuracy (%): the share of numbered slots given their key name",
    "slots-no-image": "the same prompt without the figure: the control",
    "slot_gap": "slots − slots-no-image, percentage points, paired over items",
    "chance": "the control's names placed on the numbers at random (expected %)",
    "f1_minus_slots": "name-set F1 minus slot accuracy of the same slots answers (points): "
    "vocabulary known but not placed",
}


def cell_text(estimate: float, lo: float, hi: float) -> str:
    """``estimate [lo, hi]`` to one decimal, or ``—`` when not run."""
    if math.isnan(estimate):
        return "—"
    return f"{estimate:.1f} [{lo:.1f}, {hi:.1f}]"


class SlotTable(QTableWidget):
    """One row per model; filled from the core's slot table."""

    def __init__(self) -> None:
        super().__init__(0, 1 + len(SLOT_METRICS))
        self.setHorizontalHeaderLabels(["Model", *(HEADERS[m] for m in SLOT_METRICS)])
        for column, metric in enumerate(SLOT_METRICS, start=1):
            self.horizontalHeaderItem(column).setToolTip(TIPS[metric])
        self.verticalHeader().hide()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setShowGrid(False)
        self.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)

    def fill(self, table: pd.DataFrame) -> None:
        models = sorted(table["model"].unique()) if not table.empty else []
        self.setRowCount(len(models))
        for r, model in enumerate(models):
            self.setItem(r, 0, QTableWidgetItem(str(model)))
            rows = table[table["model"] == model].set_index("metric")
            for c, metric in enumerate(SLOT_METRICS, start=1):
                row = rows.loc[metric]
                text = cell_text(float(row["estimate"]), float(row["lo"]), float(row["hi"]))
                self.setItem(r, c, QTableWidgetItem(text))
