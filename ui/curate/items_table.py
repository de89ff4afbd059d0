"""Curate's items list, drawn in one pass like Review's tables (:mod:`ui.one_pass_table`).

The list repaints whenever a run ends or a score moves; through a delegate its 100-odd
visible cells cost 10–18 ms a repaint, more under the application's proxy style — the
largest piece of GUI work at the end of a run once Review's tables were drawn in one pass.
It looks as a Fusion table does: alternating rows, a grid, the selected row in the
highlight colour, the status in its colour, and the subject wrapped whole
(:func:`ui.curate.wrapped_rows.draw_wrapped`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QStyle, QStyleOption

from ui.curate.wrapped_rows import draw_wrapped
from ui.one_pass_table import CellStyle, OnePassTable, Place


class ItemsTable(OnePassTable):
    """The items list; column ``wrapped`` (the subject) wraps, the others are centred."""

    def __init__(self, wrapped: int = 0) -> None:
        super().__init__()
        self.wrapped = wrapped
        self._grid = QColor()

    def paintEvent(self, event: QPaintEvent) -> None:
        option = QStyleOption()
        option.initFrom(self)
        hint = self.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, option, self)
        self._grid = QColor.fromRgba(hint & 0xFFFFFFFF)  # the colour Qt's own grid uses
        super().paintEvent(event)

    def paint_cell(self, painter: QPainter, place: Place, style: CellStyle) -> None:
        model, rect, row, column = self.model(), place.rect, place.row, place.column
        text_rect = rect
        if self.showGrid():  # as Qt's: one pixel off the right and bottom, lines there
            text_rect = rect.adjusted(0, 0, -1, -1)
            painter.setPen(self._grid)
            painter.drawLine(rect.right(), rect.top(), rect.right(), rect.bottom())
            painter.drawLine(rect.left(), rect.bottom(), rect.right(), rect.bottom())
        palette = style.palette
        group = (
            QPalette.ColorGroup.Active if self.isActiveWindow() else QPalette.ColorGroup.Inactive
        )
        if place.selected:
            painter.fillRect(text_rect, palette.color(group, QPalette.ColorRole.Highlight))
        elif self.alternatingRowColors() and row % 2:
            painter.fillRect(text_rect, palette.color(group, QPalette.ColorRole.AlternateBase))
        index = model.index(row, column)
        colour = model.data(index, Qt.ItemDataRole.ForegroundRole)
        if place.selected or colour is None:
            role = QPalette.ColorRole.HighlightedText if place.selected else QPalette.ColorRole.Text
            colour = palette.color(group, role)
        painter.setPen(colour)
        text = str(model.data(index, Qt.ItemDataRole.DisplayRole) or "")
        if column == self.wrapped:
            draw_wrapped(painter, text_rect, text, style.font)
        else:
            painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, text)
