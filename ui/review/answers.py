"""One item's answers side by side: a column per model × condition, a row per name.

Each column starts with a summary cell (F1, P, R, status), then the predicted
names that matched a key name (with how they matched), the extra predictions,
and the key names nobody in that answer produced. Colour says which is which;
the text says it too (tags, "missed"), so the meaning survives any palette.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from labeler.scoring import NameScore
from labeler.store import Response
from ui.review.cells import Column, ReviewData
from ui.review.matrix import CONDITION_LABELS
from ui.review.style import FAILURE_STATUSES, HOW_TAGS, heat, tone

EntryRole = Qt.ItemDataRole.UserRole + 10


@dataclass(frozen=True)
class Entry:
    """One cell of the answers table."""

    kind: str  # summary | matched | extra | missed
    text: str = ""  # the predicted name (matched, extra) or key name (missed)
    key: str = ""  # the key name a prediction matched
    how: str = ""  # exact | normalized | plural | synonym | fuzzy
    score: NameScore | None = None
    rule: str = ""  # the expert rules that made the match, e.g. "prefix B: dropped"
    response: Response | None = None


def entries_for(score: NameScore | None, response: Response | None) -> list[Entry]:
    """The column for one cell: summary, matched, extra, then missed names."""
    out = [Entry("summary", score=score, response=response)]
    if score is None:
        return out
    out += [Entry("matched", m.pred, m.key, m.how, rule=m.rule) for m in score.matches]
    out += [Entry("extra", name) for name in score.unmatched_pred]
    out += [Entry("missed", name) for name in score.missed_key]
    return out


class AnswersModel(QAbstractTableModel):
    """The answers of one item for a chosen set of columns."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.columns: list[Column] = []
        self.item_id: str | None = None
        self._entries: list[list[Entry]] = []

    def show(self, data: ReviewData | None, item_id: str | None, columns: list[Column]) -> None:
        """Rebuild for ``item_id`` (None clears the table)."""
        self.beginResetModel()
        self.item_id = item_id
        self.columns = list(columns) if data and item_id else []
        self._entries = [
            entries_for(data.score(item_id, c), data.response(item_id, c))  # type: ignore[arg-type]
            for c in self.columns
        ]
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else max((len(e) for e in self._entries), default=0)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def entry(self, row: int, column: int) -> Entry | None:
        """The entry at a cell, or None below the end of that column."""
        entries = self._entries[column]
        return entries[row] if row < len(entries) else None

    def data(self, index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        entry = self.entry(index.row(), index.column())
        if entry is None:
            return None
        if role == EntryRole:
            return entry
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.text
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(entry)
        return None

    def flags(self, index):
        if self.entry(index.row(), index.column()) is None:
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or section >= len(self.columns):
            return None
        column = self.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return CONDITION_LABELS.get(column.condition, column.condition)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{column.model} — {column.condition}"
        return None


def _tooltip(entry: Entry) -> str:
    if entry.kind == "matched":
        why = f"{entry.how}: {entry.rule}" if entry.rule else entry.how
        return f"“{entry.text}” matched key name “{entry.key}” ({why})"
    if entry.kind == "extra":
        return f"“{entry.text}” is not in the key — click to promote it or mark it distinct"
    if entry.kind == "missed":
        return f"key name “{entry.text}” was not given"
    return "Click for the raw answer, usage and cost"


class AnswersDelegate(QStyledItemDelegate):
    """Paints summary cells and coloured, tagged names."""

    def sizeHint(self, option: QStyleOptionViewItem, index) -> QSize:
        entry: Entry | None = index.data(EntryRole)
        lines = 2 if entry is not None and entry.kind == "summary" else 1
        return QSize(170, option.fontMetrics.height() * lines + 8)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index) -> None:
        entry: Entry | None = index.data(EntryRole)
        if entry is None:
            return
        palette = option.palette
        rect = option.rect.adjusted(6, 0, -6, 0)
        painter.save()
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.AlternateBase))
        if entry.kind == "summary":
            self._summary(painter, option, entry)
        else:
            self._name(painter, option, rect, entry)
        painter.restore()

    def _summary(self, painter: QPainter, option: QStyleOptionViewItem, entry: Entry) -> None:
        palette, rect = option.palette, option.rect.adjusted(1, 1, -1, -1)
        response, score = entry.response, entry.score
        if response is None or score is None:
            painter.setPen(tone(palette, "missed"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "not run")
            return
        failed = response.status in FAILURE_STATUSES
        if not failed:
            painter.fillRect(rect, heat(palette, score.f1))
        top, bottom = rect.adjusted(6, 3, -6, 0), rect.adjusted(6, 0, -6, -3)
        bold = QFont(option.font)
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        align = Qt.AlignmentFlag.AlignLeft
        painter.drawText(top, align | Qt.AlignmentFlag.AlignTop, f"F1 {score.f1 * 100:.0f}")
        painter.setFont(option.font)
        painter.drawText(
            top,
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
            f"P {score.precision * 100:.0f}  R {score.recall * 100:.0f}",
        )
        status = response.status if response.parse_ok or failed else f"{response.status}, unparsed"
        if failed or not response.parse_ok:
            painter.setPen(tone(palette, "failure"))
        painter.drawText(bottom, align | Qt.AlignmentFlag.AlignBottom, status)

    def _name(self, painter: QPainter, option: QStyleOptionViewItem, rect, entry: Entry) -> None:
        palette, metrics = option.palette, option.fontMetrics
        tag = {"matched": HOW_TAGS.get(entry.how, entry.how), "extra": "extra", "missed": "missed"}
        tag_text = tag[entry.kind]
        small = QFont(option.font)
        small.setPointSizeF(max(6.0, option.font.pointSizeF() * 0.85))
        tag_width = painter.fontMetrics().horizontalAdvance(tag_text) + 6 if tag_text else 0
        name_rect = rect.adjusted(12, 0, -tag_width, 0)
        color = tone(palette, entry.kind)
        # a dot, then the name, then the tag, all in the outcome's colour
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        cy = rect.center().y()
        if entry.kind == "missed":
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(color)
        painter.drawEllipse(rect.left(), cy - 3, 6, 6)
        font = QFont(option.font)
        font.setItalic(entry.kind == "missed")
        painter.setFont(font)
        painter.setPen(color if entry.kind != "matched" else palette.color(QPalette.ColorRole.Text))
        text = metrics.elidedText(entry.text, Qt.TextElideMode.ElideRight, name_rect.width())
        painter.drawText(
            name_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text
        )
        if tag_text:
            painter.setFont(small)
            painter.setPen(color)
            painter.drawText(
                rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, tag_text
            )
