"""Review's slot overlay: the slot image an answer was asked with, each number coloured
right (green) or wrong (red), and the name the model gave written beside it.

Shown under the raw answer when the selected cell is a ``slots`` or ``slots-no-image``
answer; the scoring is :func:`labeler.slot_results.answered_slots`, the computation the
report and the export use, so the colours are the published verdicts.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from labeler.slot_results import AnsweredSlots, answered_slots
from labeler.store import Project, Response
from ui.review.figure import ImageView

RIGHT = QColor(30, 150, 60)
WRONG = QColor(200, 40, 40)


def overlay_pixmap(answer: AnsweredSlots) -> QPixmap:
    """The slot image with each slot's box outlined in its verdict's colour and the given
    name (or "—" when none) written beside the box."""
    image = QImage.fromData(answer.png)
    pixmap = QPixmap.fromImage(image.convertToFormat(QImage.Format.Format_RGB32))
    verdicts = {v.mark: v for v in answer.score.verdicts}
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    font = QFont()
    font.setPixelSize(max(14, pixmap.height() // 40))
    font.setBold(True)
    painter.setFont(font)
    for slot in answer.slots:
        verdict = verdicts.get(slot.mark)
        if slot.box is None or verdict is None:
            continue
        colour = RIGHT if verdict.correct else WRONG
        x0, y0, x1, y1 = slot.box
        painter.setPen(QPen(colour, 3))
        painter.drawRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        text = verdict.given if verdict.given is not None else "—"
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance(text) + 8
        # beside the box, on the side with room
        left = x1 + 4 if x1 + 4 + width <= pixmap.width() else max(0, x0 - 4 - width)
        band = QRectF(left, y0, width, max(y1 - y0, metrics.height()))
        painter.fillRect(band, QColor(255, 255, 255, 220))
        painter.setPen(colour)
        painter.drawText(band, Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return pixmap


class SlotOverlay(QWidget):
    """The selected slot answer drawn on its slot image, with the accuracy above it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.image = ImageView()
        self.answer: AnsweredSlots | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.image, 1)

    def show_answer(self, project: Project, response: Response | None) -> bool:
        """Draw ``response`` if it is a slot answer; returns whether there was one to draw."""
        self.answer = None if response is None else answered_slots(project, response)
        if self.answer is None:
            self.image.set_pixmap(QPixmap())
            self.summary.clear()
            return False
        score = self.answer.score
        right = len(score.correct)
        self.summary.setText(
            f"Slot accuracy {right}/{score.n_slots} ({score.accuracy:.0%}): green right, red"
            " wrong; the model's name is beside each number"
            + (f"; numbers not on the figure: {', '.join(score.extra)}" if score.extra else "")
        )
        self.image.set_pixmap(overlay_pixmap(self.answer))
        return True
