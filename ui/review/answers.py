"""One item's answers side by side: a column per model × condition, a row per name.

Each column starts with a summary cell (F1, P, R, marker accuracy when the key
prints markers, status, and "not counted" when the answer takes no part in the
numbers), then the predicted names that matched a key name (with how they
matched), the extra predictions, and the key names nobody in that answer
produced. A predicted name shows the model's ``location_hint`` after it. Colour
says which is which; the text says it too (tags, "missed"), so the meaning
survives any palette.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette

from labeler.scoring import MarkerScore, NameScore
from labeler.status import ResponseStatus
from labeler.store import Response
from ui.one_pass_table import CellStyle, OnePassTable, Place
from ui.review.cells import Column, ReviewData, marker_text
from ui.review.matrix import column_header
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
    hint: str = ""  # the model's location_hint for a predicted name
    markers: MarkerScore | None = None  # summary: marker accuracy, items with markers
    counts: bool = True  # summary: the answer counts (labeler.results.answer_counts)


def entries_for(
    score: NameScore | None,
    response: Response | None,
    markers: MarkerScore | None = None,
    counts: bool = True,
) -> list[Entry]:
    """The column for one cell: summary, matched, extra, then missed names."""
    out = [Entry("summary", score=score, response=response, markers=markers, counts=counts)]
    if score is None:
        return out
    hints = location_hints(response)
    out += [
        Entry("matched", m.pred, m.key, m.how, rule=m.rule, hint=hints.get(m.pred, ""))
        for m in score.matches
    ]
    out += [Entry("extra", name, hint=hints.get(name, "")) for name in score.unmatched_pred]
    out += [Entry("missed", name) for name in score.missed_key]
    return out


def location_hints(response: Response | None) -> dict[str, str]:
    """Predicted name -> the model's location_hint for it (the first, if named twice)."""
    hints: dict[str, str] = {}
    for label in response.labels if response is not None else ():
        name, hint = str(label.get("name", "")).strip(), label.get("location_hint")
        if name and isinstance(hint, str) and hint.strip():
            hints.setdefault(name, hint.strip())
    return hints


def summary_status(entry: Entry) -> str:
    """The summary cell's status line: the status, whether it parsed, whether it counts."""
    response = entry.response
    if response is None:
        return "not run"
    failed = response.status in FAILURE_STATUSES
    text = response.status if response.parse_ok or failed else f"{response.status}, unparsed"
    return text if entry.counts else f"{text} · not counted"


def not_counted_reason(response: Response) -> str:
    """Why an answer takes no part in the numbers (it is either an API error or stale)."""
    if response.status == ResponseStatus.API_ERROR:
        return "API error: no answer, not counted"
    return "stale: answered for an older subject or image, not counted"


class AnswersModel(QAbstractTableModel):
    """The answers of one item for a chosen set of columns."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.columns: list[Column] = []
        self.item_id: str | None = None
        self._entries: list[list[Entry]] = []
        self._rows = 0  # the longest column: asked once per cell when rows are sized

    def show(self, data: ReviewData | None, item_id: str | None, columns: list[Column]) -> None:
        """Rebuild for ``item_id`` (None clears the table)."""
        self.beginResetModel()
        self.item_id = item_id
        self.columns, self._entries = [], []
        if data is not None and item_id is not None:
            self.columns = list(columns)
            self._entries = [
                entries_for(
                    data.score(item_id, c),
                    data.response(item_id, c),
                    data.marker_score(item_id, c),
                    data.counts(item_id, c),
                )
                for c in self.columns
            ]
        self._rows = max((len(e) for e in self._entries), default=0)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

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
        if orientation != Qt.Orientation.Horizontal:
            return None
        return column_header(self.columns, section, role)


def _tooltip(entry: Entry) -> str:
    where = f"\nlocation hint: {entry.hint}" if entry.hint else ""
    if entry.kind == "matched":
        why = f"{entry.how}: {entry.rule}" if entry.rule else entry.how
        return f"“{entry.text}” matched key name “{entry.key}” ({why}){where}"
    if entry.kind == "extra":
        return f"“{entry.text}” is not in the key — click to promote it or mark it distinct{where}"
    if entry.kind == "missed":
        return f"key name “{entry.text}” was not given"
    lines = ["Click for the raw answer, usage and cost"]
    if entry.markers is not None:
        lines.append(marker_text(entry.markers))
    if entry.response is not None and not entry.counts:
        lines.append(not_counted_reason(entry.response))
    return "\n".join(lines)


def row_heights(metrics: QFontMetrics) -> tuple[int, int]:
    """The first row's height (each column's two-line summary) and every other row's (one
    name): the table sets them, rather than asking every cell its size."""
    return metrics.height() * 2 + 8, metrics.height() + 8


class AnswersView(OnePassTable):
    """Paints summary cells and coloured, tagged names, in one pass (:mod:`ui.one_pass_table`)."""

    def paint_cell(self, painter: QPainter, place: Place, style: CellStyle) -> None:
        model = self.model()
        assert isinstance(model, AnswersModel)
        entry, rect = model.entry(place.row, place.column), place.rect
        if entry is None:
            return
        painter.save()
        if place.selected:
            painter.fillRect(rect, style.palette.color(QPalette.ColorRole.AlternateBase))
        if entry.kind == "summary":
            _summary(painter, rect, entry, style)
        else:
            _name(painter, rect.adjusted(6, 0, -6, 0), entry, style)
        painter.restore()


def _summary(painter: QPainter, cell: QRect, entry: Entry, style: CellStyle) -> None:
    palette, rect = style.palette, cell.adjusted(1, 1, -1, -1)
    response, score = entry.response, entry.score
    if response is None or score is None:
        painter.setPen(tone(palette, "missed"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "not run")
        return
    failed = response.status in FAILURE_STATUSES
    if not failed:
        painter.fillRect(rect, heat(palette, score.f1))
    top, bottom = rect.adjusted(6, 3, -6, 0), rect.adjusted(6, 0, -6, -3)
    bold = QFont(style.font)
    bold.setBold(True)
    painter.setFont(bold)
    painter.setPen(palette.color(QPalette.ColorRole.Text))
    align = Qt.AlignmentFlag.AlignLeft
    painter.drawText(top, align | Qt.AlignmentFlag.AlignTop, f"F1 {score.f1 * 100:.0f}")
    painter.setFont(style.font)
    markers = f"  M {entry.markers.accuracy * 100:.0f}" if entry.markers is not None else ""
    painter.drawText(
        top,
        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
        f"P {score.precision * 100:.0f}  R {score.recall * 100:.0f}{markers}",
    )
    if failed or not response.parse_ok or not entry.counts:
        painter.setPen(tone(palette, "failure"))
    painter.drawText(bottom, align | Qt.AlignmentFlag.AlignBottom, summary_status(entry))


def _name(painter: QPainter, rect: QRect, entry: Entry, style: CellStyle) -> None:
    palette, metrics = style.palette, style.metrics
    tag = {"matched": HOW_TAGS.get(entry.how, entry.how), "extra": "extra", "missed": "missed"}
    tag_text = tag[entry.kind]
    small = QFont(style.font)
    small.setPointSizeF(max(6.0, style.font.pointSizeF() * 0.85))
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
    font = QFont(style.font)
    font.setItalic(entry.kind == "missed")
    painter.setFont(font)
    painter.setPen(color if entry.kind != "matched" else palette.color(QPalette.ColorRole.Text))
    text = metrics.elidedText(entry.text, Qt.TextElideMode.ElideRight, name_rect.width())
    painter.drawText(name_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
    room = name_rect.width() - metrics.horizontalAdvance(text) - 6
    if entry.hint and room > 24:  # the location hint, muted, in the space the name leaves
        hint_rect = name_rect.adjusted(name_rect.width() - room, 0, 0, 0)
        painter.setFont(small)
        painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
        hint = painter.fontMetrics().elidedText(
            f"@ {entry.hint}", Qt.TextElideMode.ElideRight, hint_rect.width()
        )
        painter.drawText(
            hint_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, hint
        )
    if tag_text:
        painter.setFont(small)
        painter.setPen(color)
        painter.drawText(
            rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, tag_text
        )
