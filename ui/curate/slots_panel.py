"""Curate's Slots tab: the item's slot question, and its slot order for the curator to edit.

The slot image (the erased figure with 1…n drawn where the labels were, or the figure as it
is when its printed markers are the slots) is rendered by the core on a worker thread. The
list beside it is the slot order: move a slot up or down, drop it or take it back, or go
back to reading order. Every change is one undoable command that writes through
:func:`labeler.slots.set_slot_order` (undo writes the order it replaced).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap, QUndoCommand
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from labeler.slots import SlotQuestion, candidates, set_slot_order, slot_order, slot_question
from labeler.store import Project
from ui import workers
from ui.review.figure import ImageView
from ui.session import Session


def render(folder: Path, item_id: str) -> SlotQuestion | None:
    """The item's slot question, from a connection of the worker's own."""
    with Project.open(folder) as project:
        return slot_question(project, item_id)


class SlotOrderEdit(QUndoCommand):
    """Set an item's slot order (None: reading order); undo restores the one before."""

    def __init__(self, session: Session, item_id: str, order: list[int] | None) -> None:
        super().__init__("Reorder slots")
        self.session, self.item_id, self.order = session, item_id, order
        self.before: list[int] | None = None

    def redo(self) -> None:
        try:
            self.before = set_slot_order(self.session.require_project(), self.item_id, self.order)
        except Exception:
            self.setObsolete(True)  # QUndoStack.push then discards it
            raise
        self.session.item_changed.emit(self.item_id)

    def undo(self) -> None:
        set_slot_order(self.session.require_project(), self.item_id, self.before)
        self.session.item_changed.emit(self.item_id)


class SlotsPanel(QWidget):
    """The slot image and the editable slot order of the shown item."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.item_id: str | None = None
        self.worker: workers.Worker | None = None
        self.question: SlotQuestion | None = None
        self.image = ImageView()
        self.order = QListWidget()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.up = QPushButton("Move up")
        self.down = QPushButton("Move down")
        self.drop = QPushButton("Drop / keep")
        self.reset = QPushButton("Reading order")
        self.drop.setToolTip("A dropped slot is not numbered and not asked")
        buttons = QHBoxLayout()
        for button in (self.up, self.down, self.drop, self.reset):
            buttons.addWidget(button)
        side = QVBoxLayout()
        side.addWidget(self.note)
        side.addWidget(self.order, 1)
        side.addLayout(buttons)
        layout = QHBoxLayout(self)
        layout.addWidget(self.image, 3)
        layout.addLayout(side, 2)
        self.up.clicked.connect(lambda: self._move(-1))
        self.down.clicked.connect(lambda: self._move(1))
        self.drop.clicked.connect(self._toggle_drop)
        self.reset.clicked.connect(lambda: self._push(None))
        session.item_changed.connect(self._changed)

    def follow(self, item_id: str | None) -> None:
        """Show ``item_id`` unless it is already shown (its edits refresh it themselves)."""
        if item_id != self.item_id:
            self.show_item(item_id)

    def _changed(self, item_id: str) -> None:
        if item_id == self.item_id:  # its key or slot order changed: redraw
            self.show_item(item_id)

    def show_item(self, item_id: str | None) -> None:
        """Show ``item_id``'s slots (None: nothing); the image arrives from a worker."""
        self.item_id = item_id
        project = self.session.project
        self.order.clear()
        self.image.set_pixmap(QPixmap(), "Rendering the slot question…")
        if item_id is None or project is None:
            self.image.set_pixmap(QPixmap(), "No item")
            return
        entries = project.items.key(item_id)
        kept = slot_order(project, item_id)
        dropped = [i for i in candidates(entries) if i not in kept]
        for n, i in enumerate(kept, start=1):
            self._add_row(f"{n}. {entries[i].name}", i, kept=True)
        for i in dropped:
            self._add_row(f"dropped: {entries[i].name}", i, kept=False)
        self.note.setText(
            f"{len(kept)} slot(s) in this order; the model names the part at each number."
            if kept
            else "No slot: the key has no named entry with a box."
        )
        worker = workers.Worker(render, project.folder, item_id)
        worker.signals.result.connect(self._rendered)
        self.worker = workers.start(worker)

    def _add_row(self, text: str, position: int, *, kept: bool) -> None:
        row = QListWidgetItem(text)
        row.setData(Qt.ItemDataRole.UserRole, (position, kept))
        self.order.addItem(row)

    def _rendered(self, question: SlotQuestion | None) -> None:
        if self.worker is None or self.sender() is not self.worker.signals:
            return  # an older item's image
        self.worker = None
        self.question = question
        if question is None:
            self.image.set_pixmap(QPixmap(), "No slot question for this item")
            return
        pixmap = QPixmap()
        pixmap.loadFromData(question.png)
        self.image.set_pixmap(pixmap)

    def current_order(self) -> list[int]:
        """The kept positions, in list order."""
        role = Qt.ItemDataRole.UserRole
        rows = [self.order.item(r).data(role) for r in range(self.order.count())]
        return [position for position, kept in rows if kept]

    def _move(self, step: int) -> None:
        order, row = self.current_order(), self.order.currentRow()
        if not 0 <= row < len(order) or not 0 <= row + step < len(order):
            return
        order[row], order[row + step] = order[row + step], order[row]
        self._push(order)
        self.order.setCurrentRow(row + step)

    def _toggle_drop(self) -> None:
        row = self.order.currentItem()
        if row is None:
            return
        position, kept = row.data(Qt.ItemDataRole.UserRole)
        order = self.current_order()
        self._push([p for p in order if p != position] if kept else [*order, position])

    def _push(self, order: list[int] | None) -> None:
        if self.item_id is not None:
            self.session.undo_stack.push(SlotOrderEdit(self.session, self.item_id, order))
