"""The item-flags table as one Qt model: thousands of items, no widget item per cell.

A project of 2,000 items has 10,000 flag cells; building a ``QTableWidgetItem``
per cell (and sorting them through a Python ``__lt__``) blocked the window for
a tenth of a second on every refresh. This model keeps the rows as a list,
sorts and filters it in plain Python (one ``list.sort`` with a key) and lets the
view read only the cells it paints.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ui.leaderboard.compute import ItemFlag
from ui.row_refresh import refresh_rows, same

HEADERS = ("Item", "Subject", "Best F1", "No-image", "Flags")
FLAG_FILTERS = {
    "all": "All items",
    "recitable": "Recitable (F1 ≥ 0.5 with no image)",
    "unsolved": "Unsolved (no model ever scored 1.0)",
}
_KEEP: dict[str, Callable[[ItemFlag], bool]] = {
    "all": lambda _: True,
    "recitable": lambda f: f.recitable,
    "unsolved": lambda f: f.unsolved_core,
}
_SORT_KEYS: tuple[Callable[[ItemFlag], object], ...] = (
    lambda f: f.label.lower(),
    lambda f: f.subject.lower(),
    lambda f: f.best_f1,
    lambda f: -1.0 if math.isnan(f.best_no_image) else f.best_no_image,
    lambda f: flag_words(f),
)

Index = QModelIndex | QPersistentModelIndex


def flag_words(flag: ItemFlag) -> str:
    """The flags in words: "recitable", "unsolved", both or none."""
    on = (("recitable", flag.recitable), ("unsolved", flag.unsolved_core))
    return ", ".join(word for word, set_ in on if set_)


def _percent(value: float) -> str:
    return "—" if math.isnan(value) else f"{value * 100:.0f}"


class FlagsModel(QAbstractTableModel):
    """The items' flags and best scores, filtered by one of :data:`FLAG_FILTERS`, sortable."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._all: list[ItemFlag] = []
        self.rows: list[ItemFlag] = []
        self._filter = "all"
        self._sort = (0, Qt.SortOrder.AscendingOrder)

    def show(self, items: list[ItemFlag], filter_name: str) -> None:
        """Show those of ``items`` that one of :data:`FLAG_FILTERS` keeps, in the sort order."""
        self._all, self._filter = items, filter_name
        self._refill()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        self._refill()

    def _refill(self) -> None:
        column, order = self._sort
        keep = _KEEP[self._filter]
        rows = [f for f in self._all if keep(f)]
        rows.sort(key=_SORT_KEYS[column], reverse=order == Qt.SortOrder.DescendingOrder)

        def take() -> None:
            self.rows = rows

        old_ids, new_ids = [f.item_id for f in self.rows], [f.item_id for f in rows]
        refresh_rows(self, old_ids, new_ids, lambda r: not same(self.rows[r], rows[r]), take)

    def text(self, row: int, column: int) -> str:
        """What cell (row, column) shows."""
        flag = self.rows[row]
        if column == 0:
            return flag.label
        if column == 1:
            return flag.subject
        if column == 2:
            return _percent(flag.best_f1)
        if column == 3:
            return _percent(flag.best_no_image)
        return flag_words(flag)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(index.row(), index.column())
        if role == Qt.ItemDataRole.ToolTipRole:
            flag = self.rows[index.row()]
            return flag.item_id if index.column() == 0 else self.text(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (2, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
