"""Tables whose visible cells are drawn in one Python pass, not one delegate call each.

A ``QTableView`` paints each cell through its item delegate: a style option built
and handed across the bindings, and a model call, per cell — ≈ 0.15 ms a cell on
this machine before any drawing, so 14–27 ms for the hundred cells Review's matrix
shows in a 1280 × 800 window, at every scroll step and at the end of every run (the
longest stretch of GUI-thread work a run's end left, decision 0024). A
:class:`OnePassTable` walks the damaged region's cells itself and hands each to
:meth:`OnePassTable.paint_cell` with what drawing needs, taken once per repaint
(:class:`CellStyle`). The view draws no grid of its own (a subclass that shows one
draws it with its cells) and no focus frame, as the delegates these replace drew none.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRect
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QTableView


@dataclass(frozen=True, slots=True)
class Place:
    """Where a cell is drawn: its rectangle (viewport coordinates), row and column, and
    whether it is selected."""

    rect: QRect
    row: int
    column: int
    selected: bool


@dataclass(frozen=True)
class CellStyle:
    """What drawing a cell needs from its view, read once per repaint."""

    palette: QPalette
    font: QFont
    metrics: QFontMetrics


class OnePassTable(QTableView):
    """A table view that draws its visible cells in one loop (:meth:`paint_cell`)."""

    def paintEvent(self, event: QPaintEvent) -> None:
        model = self.model()
        rows, columns = model.rowCount(), model.columnCount()
        area = event.rect()
        first_row, last_row = self.rowAt(area.top()), self.rowAt(area.bottom())
        first_col, last_col = self.columnAt(area.left()), self.columnAt(area.right())
        if not rows or not columns or first_row < 0 or first_col < 0:
            return
        last_row = rows - 1 if last_row < 0 else last_row
        last_col = columns - 1 if last_col < 0 else last_col
        selected = {(i.row(), i.column()) for i in self.selectionModel().selectedIndexes()}
        style = CellStyle(self.palette(), self.font(), self.fontMetrics())
        spans = [
            (c, self.columnViewportPosition(c), self.columnWidth(c))
            for c in range(first_col, last_col + 1)
        ]
        painter = QPainter(self.viewport())
        painter.setFont(style.font)
        for row in range(first_row, last_row + 1):
            y, height = self.rowViewportPosition(row), self.rowHeight(row)
            for column, x, width in spans:
                place = Place(QRect(x, y, width, height), row, column, (row, column) in selected)
                self.paint_cell(painter, place, style)
        painter.end()

    def paint_cell(self, painter: QPainter, place: Place, style: CellStyle) -> None:
        """Draw one cell at ``place``."""
        raise NotImplementedError
