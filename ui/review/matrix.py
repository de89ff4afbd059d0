"""The overview matrix: items down, model × condition across, one F1 per cell.

7,200 cells must open in well under a second, so this is one
:class:`QAbstractTableModel` painted by one delegate — no widget per cell — and
a cell is scored only when it is first painted (:class:`ReviewData` caches it).
The horizontal header groups the condition columns under their model's name.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    Qt,
)
from PySide6.QtGui import QFont, QPainter, QPalette, QPolygon
from PySide6.QtWidgets import QHeaderView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from labeler.status import ResponseStatus
from ui.review.cells import Column, ReviewData, marker_text
from ui.review.style import FAILURE_STATUSES, heat, tone

CONDITION_LABELS = {"blind": "blind", "told": "told", "desc": "desc", "no-image": "no-img"}
STATUS_LABELS = {
    ResponseStatus.TRUNCATED: "trunc",
    ResponseStatus.EMPTY: "empty",
    ResponseStatus.REFUSED: "refused",
    ResponseStatus.API_ERROR: "error",
}

ScoreRole = Qt.ItemDataRole.UserRole + 1  # NameScore | None
ResponseRole = Qt.ItemDataRole.UserRole + 2  # Response | None
StaleRole = Qt.ItemDataRole.UserRole + 3  # bool: answered for an older subject or image

Index = QModelIndex | QPersistentModelIndex


class MatrixModel(QAbstractTableModel):
    """Rows are the visible items (after filtering); columns are :class:`Column` s."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.data_source: ReviewData | None = None
        self.item_ids: list[str] = []
        self._labels: dict[str, str] = {}

    def reset(self, data: ReviewData | None, item_ids: list[str]) -> None:
        """Show ``item_ids`` (in order) from ``data``."""
        self.beginResetModel()
        self.data_source = data
        self.item_ids = item_ids
        self._labels = {
            item.id: f"{n}  {item.subject or item.id}"
            for n, item in enumerate(data.items if data else [], start=1)
        }
        self.endResetModel()

    def rescored(self) -> None:
        """Scores changed (lexicon edit): repaint every cell without resetting selection."""
        if self.item_ids and self.columns:
            last = self.index(len(self.item_ids) - 1, len(self.columns) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    @property
    def columns(self) -> list[Column]:
        return self.data_source.columns if self.data_source else []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.item_ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.data_source is None:
            return None
        item_id, column = self.item_ids[index.row()], self.columns[index.column()]
        if role == ScoreRole:
            return self.data_source.score(item_id, column)
        if role == ResponseRole:
            return self.data_source.response(item_id, column)
        if role == StaleRole:
            return self.data_source.stale(item_id, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(item_id, column)
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if section >= len(self.columns):
                return None
            column = self.columns[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return CONDITION_LABELS.get(column.condition, column.condition)
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"{column.model} — {column.condition}"
            return None
        if section >= len(self.item_ids):
            return None
        item_id = self.item_ids[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._labels.get(item_id, item_id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return item_id
        return None

    def _tooltip(self, item_id: str, column: Column) -> str:
        assert self.data_source is not None
        response = self.data_source.response(item_id, column)
        if response is None:
            return f"{column.model} · {column.condition}: not run"
        score = self.data_source.score(item_id, column)
        assert score is not None
        parse = "" if response.parse_ok else " · did not parse"
        stale = (
            "\nstale: answered for an older subject or image (not counted; a run re-sends it)"
            if self.data_source.stale(item_id, column)
            else ""
        )
        markers = self.data_source.marker_score(item_id, column)
        marker_line = f"\n{marker_text(markers)}" if markers is not None else ""
        return (
            f"{column.model} · {column.condition}\n"
            f"F1 {score.f1:.2f}  P {score.precision:.2f}  R {score.recall:.2f}{marker_line}\n"
            f"status {response.status}{parse}{stale}"
        )


class MatrixDelegate(QStyledItemDelegate):
    """Paints a heat-coloured F1 (as a percentage), or the failure status, per cell."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        palette = option.palette
        rect = option.rect.adjusted(1, 1, -1, -1)
        response = index.data(ResponseRole)
        painter.save()
        if response is None:
            painter.setPen(tone(palette, "missed"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "·")
        elif response.status in FAILURE_STATUSES:
            painter.setPen(tone(palette, "failure"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, STATUS_LABELS[response.status])
        else:
            score = index.data(ScoreRole)
            painter.fillRect(rect, heat(palette, score.f1))
            painter.setPen(palette.color(QPalette.ColorRole.Text))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, f"{score.f1 * 100:.0f}")
            if response.status == ResponseStatus.PARSE_ERROR or not response.parse_ok:
                self._corner(painter, rect, tone(palette, "failure"))
            if index.data(StaleRole):
                self._corner(painter, rect, tone(palette, "missed"), bottom_left=True)
        if option.state & QStyle.StateFlag.State_Selected:
            pen = painter.pen()
            pen.setColor(palette.color(QPalette.ColorRole.Highlight))
            pen.setWidth(2)
            painter.setPen(pen)
            painter.drawRect(rect.adjusted(1, 1, -1, -1))
        painter.restore()

    @staticmethod
    def _corner(painter: QPainter, rect: QRect, color, bottom_left: bool = False) -> None:
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
                text = painter.fontMetrics().elidedText(
                    columns[start].short_model, Qt.TextElideMode.ElideMiddle, rect.width() - 8
                )
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
            start = end + 1
        painter.end()
