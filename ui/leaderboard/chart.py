"""Grounded vs recited, per model: the card's headline as one bar each.

Each model's bar is its ``told`` F1, split at its ``no-image`` F1: the part a
model scores without the picture (recited) and the part only the picture
explains (grounded = told − no-image). Drawn with QPainter because
PySide6-Essentials ships no QtCharts.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.leaderboard.compute import ModelRow
from ui.review.style import tone
from ui.row_refresh import same

BAR = 16
GAP = 10
LEGEND_LINE = 20  # one line of the legend; it wraps to a second in a narrow pane (1024 px)
LEGEND = ("recited (no-image F1)", "grounded (told − no-image)")


class GroundingChart(QWidget):
    """Horizontal stacked bars: recited (no-image) + grounded (told − no-image)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[ModelRow] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_rows(self, rows: list[ModelRow]) -> None:
        """Draw these models' bars; the same numbers again repaint nothing."""
        shown = [r for r in rows if not math.isnan(r.values["told"])]
        if same(shown, self.rows):
            return
        self.rows = shown
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(520, self._height(520))

    def minimumSizeHint(self) -> QSize:
        return QSize(320, self._height(320))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._height(width)

    def _height(self, width: int) -> int:
        return self._legend_height(width) + 30 + len(self.rows) * (BAR + GAP)

    def legend_layout(self, width: int | None = None) -> list[tuple[QRectF, QRectF, str]]:
        """(swatch, text rect, label) per legend entry: side by side while they fit in
        ``width`` (default: the widget's), else each on its own line, never cut."""
        width = self.width() if width is None else width
        metrics = self.fontMetrics()
        x, y, placed = 8.0, 4.0, []
        for label in LEGEND:
            text_w = metrics.horizontalAdvance(label) + 4
            if placed and x + 18 + text_w > width:
                x, y = 8.0, y + LEGEND_LINE
            placed.append((QRectF(x, y + 4, 12, 12), QRectF(x + 18, y, text_w, 20), label))
            x += text_w + 28
        return placed

    def _legend_height(self, width: int) -> int:
        return int(self.legend_layout(width)[-1][1].bottom()) + 4

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.updateGeometry()  # the legend may have wrapped or unwrapped

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        recited, grounded = tone(palette, "recited"), tone(palette, "grounded")
        metrics = painter.fontMetrics()
        if not self.rows:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No told results yet")
            return
        self._legend(painter, recited, grounded, text)
        names = [r.model.rsplit("/", 1)[-1] for r in self.rows]
        label_w = min(220, max(metrics.horizontalAdvance(n) for n in names) + 12)
        left, right = label_w, self.width() - 64
        top = self._legend_height(self.width()) + 8
        scale = (right - left) / 100.0
        axis = QPen(palette.color(QPalette.ColorRole.Mid))
        # the scale's numbers are text: the grid's faint colour made them vanish on dark
        scale_text = QPen(palette.color(QPalette.ColorRole.PlaceholderText))
        for tick in range(0, 101, 25):
            x = left + tick * scale
            bottom = top + len(self.rows) * (BAR + GAP)
            painter.setPen(axis)
            painter.drawLine(int(x), top - 4, int(x), bottom)
            painter.setPen(scale_text)
            painter.drawText(
                QRectF(x - 20, bottom, 40, 16), Qt.AlignmentFlag.AlignCenter, f"{tick}"
            )
        for n, (row, name) in enumerate(zip(self.rows, names, strict=True)):
            y = top + n * (BAR + GAP)
            told, no_image = row.values["told"], row.values["no-image"]
            painter.setPen(text)
            painter.drawText(
                QRectF(0, y, label_w - 8, BAR),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                metrics.elidedText(name, Qt.TextElideMode.ElideMiddle, label_w - 8),
            )
            painter.setPen(Qt.PenStyle.NoPen)
            if math.isnan(no_image):
                painter.setBrush(palette.color(QPalette.ColorRole.Mid))
                painter.drawRect(QRectF(left, y, told * scale, BAR))
                note = f"{told:.1f} · no-image not run"
            else:
                base = min(no_image, told)
                painter.setBrush(recited)
                painter.drawRect(QRectF(left, y, base * scale, BAR))
                painter.setBrush(grounded)
                painter.drawRect(QRectF(left + base * scale, y, (told - base) * scale, BAR))
                note = f"{told - no_image:+.1f}"
            painter.setPen(text)
            painter.drawText(
                QRectF(left + told * scale + 6, y, 120, BAR),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                note,
            )

    def _legend(self, painter: QPainter, recited, grounded, text) -> None:
        for (swatch, where, label), color in zip(
            self.legend_layout(), (recited, grounded), strict=True
        ):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            painter.drawRect(swatch)
            painter.setPen(text)
            painter.drawText(where, Qt.AlignmentFlag.AlignVCenter, label)
