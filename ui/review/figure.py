"""The item's figure (erased question or labelled original) above its answer key."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from labeler.errors import LabelerError
from labeler.store import Item, KeyEntry, Project

_MARGINS = QMargins(8, 8, 8, 8)


class ImageView(QWidget):
    """A pixmap scaled to fit, aspect kept, centred; a message when there is none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pixmap = QPixmap()
        self._message = "No figure"
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(200, 160)

    def set_pixmap(self, pixmap: QPixmap, message: str = "No figure") -> None:
        self._pixmap, self._message = pixmap, message
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, 300)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Base))
        if self._pixmap.isNull():
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self._message)
            return
        size = self._pixmap.size().scaled(
            self.size().shrunkBy(_MARGINS), Qt.AspectRatioMode.KeepAspectRatio
        )
        x = (self.width() - size.width()) / 2
        y = (self.height() - size.height()) / 2
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawPixmap(
            QRectF(x, y, size.width(), size.height()), self._pixmap, QRectF(self._pixmap.rect())
        )


class FigurePanel(QWidget):
    """Erased/original toggle, the figure, and the key names (with markers)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._project: Project | None = None
        self._item: Item | None = None
        self.title = QLabel()
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.erased = QPushButton("Erased")
        self.original = QPushButton("Original")
        self.erased.setToolTip("The question image the model saw (E)")
        self.original.setToolTip("The labelled original: the answer key (O)")
        group = QButtonGroup(self)
        for button in (self.erased, self.original):
            button.setCheckable(True)
            # The pressed look alone is too faint in the dark palette: colour the chosen one.
            button.setStyleSheet(
                "QPushButton:checked { background: palette(highlight);"
                " color: palette(highlighted-text); }"
            )
            group.addButton(button)
        self.erased.setChecked(True)
        group.buttonToggled.connect(lambda *_: self._show_image())
        self.image = ImageView()
        self.key_label = QLabel("Answer key")
        self.key_list = QListWidget()
        self.key_list.setAlternatingRowColors(True)
        toggle = QHBoxLayout()
        toggle.setSpacing(0)
        toggle.addWidget(self.erased)
        toggle.addWidget(self.original)
        toggle.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addLayout(toggle)
        layout.addWidget(self.image, 3)
        layout.addWidget(self.key_label)
        layout.addWidget(self.key_list, 2)

    def show_item(self, project: Project | None, item: Item | None, key: list[KeyEntry]) -> None:
        """Show an item (None clears the panel)."""
        self._project, self._item = project, item
        self.title.setText(f"{item.subject or '(no subject)'}  ·  {item.id}" if item else "")
        self.key_label.setText(f"Answer key ({len(key)} names)" if item else "Answer key")
        self.key_list.clear()
        for entry in key:
            self.key_list.addItem(f"{entry.marker}   {entry.name}" if entry.marker else entry.name)
        self._show_image()

    def toggle(self) -> None:
        """Switch between the erased and the original image."""
        (self.original if self.erased.isChecked() else self.erased).setChecked(True)

    def _show_image(self) -> None:
        item, project = self._item, self._project
        if item is None or project is None:
            self.image.set_pixmap(QPixmap(), "No item")
            return
        asset = item.question_asset if self.erased.isChecked() else item.answer_asset
        pixmap = QPixmap()
        message = "No image stored for this item"
        if asset:
            try:
                pixmap.loadFromData(project.assets.read(asset))
            except LabelerError as exc:
                message = str(exc)
        self.image.set_pixmap(pixmap, message)
