"""Grounded vs recited, per model: the card's headline as one bar each.

Each model's bar is its ``told`` F1, split at its ``no-image`` F1: the part a
model scores without the picture (recited) and the part only the picture
explains (grounded = told − no-image). Drawn with QPainter because
PySide6-Essentials ships no QtCharts.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.leaderboard.compute import ModelRow
from ui.review.style import tone

BAR = 16
GAP = 10
LEGEND = 28


class GroundingChart(QWidget):
    """Horizontal stacked bars: recited (no-image) + grounded (told − no-image)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[ModelRow] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def set_rows(self, rows: list[ModelRow]) -> None:
        self.rows = [r for r in rows if not math.isnan(r.values["told"])]
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(520, LEGEND + 30 + len(self.rows) * (BAR + GAP))

    def minimumSizeHint(self) -> QSize:
        return QSize(320, LEGEND + 30 + len(self.rows) * (BAR + GAP))

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
        top = LEGEND + 8
        scale = (right - left) / 100.0
        axis = QPen(palette.color(QPalette.ColorRole.Mid))
        painter.setPen(axis)
        for tick in range(0, 101, 25):
            x = left + tick * scale
            bottom = top + len(self.rows) * (BAR + GAP)
            painter.drawLine(int(x), top - 4, int(x), bottom)
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
        font = QFont(self.font())
        painter.setFont(font)
        x = 8
        for color, label in (
            (recited, "recited (no-image F1)"),
            (grounded, "grounded (told − no-image)"),
        ):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            painter.drawRect(QRectF(x, 8, 12, 12))
            painter.setPen(text)
            width = painter.fontMetrics().horizontalAdvance(label)
            painter.drawText(QRectF(x + 18, 4, width + 4, 20), Qt.AlignmentFlag.AlignVCenter, label)
            x += width + 32
