"""The overview matrix: items down, model × condition across, one F1 per cell.

100,000 cells must open in well under a second, so this is one
:class:`QAbstractTableModel` drawn by one view in one pass (:class:`MatrixView`) — no
widget per cell, no per-cell work at a reset — over the :class:`~ui.review.cells.CellSummary` each
cell got on the worker that scored the project (:func:`ui.review.cells.load_review`).
The horizontal header groups the condition columns under their model's name.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    Qt,
)
from PySide6.QtGui import QColor, QFont, QPainter, QPalette, QPolygon
from PySide6.QtWidgets import QAbstractScrollArea, QHeaderView

from labeler.status import ResponseStatus
from ui.one_pass_table import CellStyle, OnePassTable, Place
from ui.review.cells import CellSummary, Column, ReviewData, marker_text
from ui.review.style import FAILURE_STATUSES, heat, tone
from ui.row_refresh import refresh_rows, runs

CONDITION_LABELS = {
    "blind": "blind",
    "told": "told",
    "desc": "desc",
    "no-image": "no-img",
    "slots": "slots",
    "slots-no-image": "slots∅",  # no image; the header tooltip names it
}
STATUS_LABELS = {
    ResponseStatus.TRUNCATED: "trunc",
    ResponseStatus.EMPTY: "empty",
    ResponseStatus.REFUSED: "refused",
    ResponseStatus.API_ERROR: "error",
}

SummaryRole = Qt.ItemDataRole.UserRole + 1  # CellSummary | None (never run)


def column_header(columns: Sequence[Column], section: int, role: int) -> str | None:
    """The heading of condition column ``section``: its short condition name, and as tooltip
    "model — condition" (the model's name is drawn once over its columns, not in each).

    The matrix and the answers table head their columns alike with it.
    """
    if section >= len(columns):
        return None
    column = columns[section]
    if role == Qt.ItemDataRole.DisplayRole:
        return CONDITION_LABELS.get(column.condition, column.condition)
    if role == Qt.ItemDataRole.ToolTipRole:
        return f"{column.model} — {column.condition}"
    return None


Index = QModelIndex | QPersistentModelIndex


class MatrixModel(QAbstractTableModel):
    """Rows are the visible items (after filtering); columns are :class:`Column` s."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.data_source: ReviewData | None = None
        self.item_ids: list[str] = []
        self._labels: dict[str, str] = {}
        self._numbers: dict[str, int] = {}

    def reset(self, data: ReviewData | None, item_ids: list[str]) -> bool:
        """Show ``item_ids`` (in order) from ``data``; True when the view was reset.

        A newer snapshot of the same rows and columns (the end of a run, a lexicon
        edit, a re-sent answer) repaints only the rows it changed, in place, keeping
        the selection and scroll (:mod:`ui.row_refresh`).
        """
        previous, numbers = self.data_source, {}
        if data is not None:
            numbers = {item.id: n for n, item in enumerate(data.items, 1)}

        def take() -> None:
            self.data_source, self.item_ids, self._numbers = data, item_ids, numbers
            self._labels = {}

        if data is None or previous is None or data.columns != previous.columns:
            self.beginResetModel()
            take()
            self.endResetModel()
            return True

        def changed(row: int) -> bool:
            return data.changed(previous, item_ids[row])

        before = self._numbers
        if refresh_rows(self, self.item_ids, item_ids, changed, take):
            return True
        # "12  subject": a row is renamed when its number moved or, its row having changed,
        # its subject did (no label is made for a row that is not painted)
        renamed = [
            row
            for row, i in enumerate(item_ids)
            if numbers[i] != before.get(i)
            or (changed(row) and data.item(i).subject != previous.item(i).subject)
        ]
        for first, last in runs(renamed):
            self.headerDataChanged.emit(Qt.Orientation.Vertical, first, last)
        return False

    @property
    def columns(self) -> list[Column]:
        return self.data_source.columns if self.data_source else []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.item_ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.columns)

    def summary(self, row: int, column: int) -> CellSummary | None:
        """What cell (row, column) shows; None when never run (or no data)."""
        if self.data_source is None:
            return None
        return self.data_source.summary(self.item_ids[row], self.columns[column])

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.data_source is None:
            return None
        item_id, column = self.item_ids[index.row()], self.columns[index.column()]
        if role == SummaryRole:
            return self.data_source.summary(item_id, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(item_id, column)
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            return column_header(self.columns, section, role)
        if section >= len(self.item_ids):
            return None
        item_id = self.item_ids[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._label(item_id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return item_id
        return None

    def _label(self, item_id: str) -> str:
        """ "N  subject", made when first painted (a reset makes no per-row strings)."""
        label = self._labels.get(item_id)
        if label is None and self.data_source is not None:
            item = self.data_source.item(item_id)
            label = self._labels[item_id] = f"{self._numbers[item_id]}  {item.subject or item_id}"
        return label or item_id

    def _tooltip(self, item_id: str, column: Column) -> str:
        assert self.data_source is not None
        cell = self.data_source.summary(item_id, column)
        if cell is None:
            return f"{column.model} · {column.condition}: not run"
        parse = "" if cell.parse_ok else " · did not parse"
        stale = (
            "\nstale: answered for an older subject or image (not counted; a run re-sends it)"
            if cell.stale
            else ""
        )
        marker_line = f"\n{marker_text(cell.markers)}" if cell.markers is not None else ""
        return (
            f"{column.model} · {column.condition}\n"
            f"F1 {cell.f1:.2f}  P {cell.precision:.2f}  R {cell.recall:.2f}{marker_line}\n"
            f"status {cell.status}{parse}{stale}"
        )


class MatrixView(OnePassTable):
    """The matrix: its visible cells drawn in one pass (:mod:`ui.one_pass_table`) straight
    from :meth:`MatrixModel.summary`."""

    def paint_cell(self, painter: QPainter, place: Place, style: CellStyle) -> None:
        model = self.model()
        assert isinstance(model, MatrixModel)
        cell = model.summary(place.row, place.column)
        paint_cell(painter, place.rect, cell, style.palette, place.selected)


def paint_cell(
    painter: QPainter, rect: QRect, cell: CellSummary | None, palette: QPalette, selected: bool
) -> None:
    """One matrix cell: a heat-coloured F1 (as a percentage), or the failure status."""
    rect = rect.adjusted(1, 1, -1, -1)
    painter.save()
    if cell is None:
        painter.setPen(tone(palette, "missed"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "·")
    elif cell.status in FAILURE_STATUSES:
        painter.setPen(tone(palette, "failure"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, STATUS_LABELS[cell.status])
    else:
        painter.fillRect(rect, heat(palette, cell.f1))
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{cell.f1 * 100:.0f}")
        if cell.status == ResponseStatus.PARSE_ERROR or not cell.parse_ok:
            _corner(painter, rect, tone(palette, "failure"))
        if cell.stale:
            _corner(painter, rect, tone(palette, "missed"), bottom_left=True)
    if selected:
        pen = painter.pen()
        pen.setColor(palette.color(QPalette.ColorRole.Highlight))
        pen.setWidth(2)
        painter.setPen(pen)
        painter.drawRect(rect.adjusted(1, 1, -1, -1))
    painter.restore()


def _corner(painter: QPainter, rect: QRect, color: QColor, bottom_left: bool = False) -> None:
    """A small triangle marking the cell: top-right, the answer did not parse cleanly;
    bottom-left, the answer is stale."""
    size = 7
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    if bottom_left:
        b = rect.bottomLeft()
        points = [b, QPoint(b.x() + size, b.y()), QPoint(b.x(), b.y() - size)]
    else:
        r = rect.topRight()
        points = [r, QPoint(r.x() - size, r.y()), QPoint(r.x(), r.y() + size)]
    painter.drawPolygon(QPolygon(points))


class GroupedHeader(QHeaderView):
    """A two-line horizontal header: the model name spans its condition columns."""

    def __init__(self, parent=None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setDefaultAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom)
        self.setSectionsClickable(True)
        self.setHighlightSections(True)
        if isinstance(parent, QAbstractScrollArea):  # the names follow a sideways scroll
            parent.horizontalScrollBar().valueChanged.connect(lambda _: self.viewport().update())

    def sizeHint(self):
        hint = super().sizeHint()
        hint.setHeight(self.fontMetrics().height() * 2 + 14)
        return hint

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        model = self.model()
        columns = getattr(model, "columns", None)
        if not columns:
            return
        painter = QPainter(self.viewport())
        palette = self.palette()
        band = self.height() // 2
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        start = 0
        while start < len(columns):
            end = start
            while end + 1 < len(columns) and columns[end + 1].model == columns[start].model:
                end += 1
            x0 = self.sectionViewportPosition(start)
            x1 = self.sectionViewportPosition(end) + self.sectionSize(end)
            if x1 >= 0 and x0 <= self.viewport().width():
                rect = QRect(x0, 0, x1 - x0, band)
                painter.fillRect(rect, palette.color(QPalette.ColorRole.Button))
                painter.setPen(palette.color(QPalette.ColorRole.Mid))
                painter.drawLine(rect.bottomLeft(), rect.bottomRight())
                painter.drawLine(rect.topLeft(), rect.bottomLeft())
                painter.setPen(palette.color(QPalette.ColorRole.ButtonText))
                where = self.label_rect(start, end)
                text = painter.fontMetrics().elidedText(
                    columns[start].short_model, Qt.TextElideMode.ElideMiddle, where.width() - 8
                )
                painter.drawText(where, Qt.AlignmentFlag.AlignCenter, text)
            start = end + 1
        painter.end()

    def label_rect(self, start: int, end: int) -> QRect:
        """Where the name of the model spanning sections ``start``..``end`` is drawn: the
        part of its band in view, so a span wider than the view (one model's six conditions
        in a 1024 px window) shows its name instead of a letter at the edge."""
        x0 = self.sectionViewportPosition(start)
        x1 = self.sectionViewportPosition(end) + self.sectionSize(end)
        band = QRect(x0, 0, x1 - x0, self.height() // 2)
        return band.intersected(QRect(0, 0, self.viewport().width(), band.height()))
