"""The Decisions panel: approve an item, confirm its key, override a cell's score, comment, undo.

Shown in Review (beside the raw answer: the selected cell can be overridden or commented on)
and in Curate (the item's approvals). Every decision is made by :mod:`labeler.review` on a
worker with its own connection — approving reads the question back, which may run OCR — and
recorded under the reviewer name kept in the preferences (the Reviewer field here edits it).
The history lists the item's whole trail; Undo appends a reversal, so an undone decision stays
listed, struck through. The Undo button reverses the selected decision; Ctrl+Z (Edit ▸ Undo)
while the panel has focus reverses the reviewer's newest decision in force
(:func:`labeler.review.last_undoable`), and the Edit menu names it (:mod:`ui.undo_menu`).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from labeler import review
from labeler.store import Project
from labeler.store.reviews import ReviewEvent
from ui import settings, workers
from ui.errors import show_error
from ui.session import Session

#: What the score box offers; any number from 0 to 1 may also be typed.
SCORE_CHOICES = ("correct", "incorrect", "0.5")
#: A decision as the Edit menu names it ("Undo approval of heart (Ana)").
DECISION_NAMES = {
    "approve": "approval",
    "confirm-key": "key confirmation",
    "override": "score override",
    "comment": "comment",
}


def decide(folder: Path, action: str, reviewer: str, args: dict[str, Any]) -> ReviewEvent:
    """Make one decision on a pool thread (its own connection): what the panel's buttons run."""
    with Project.open(folder) as project:
        if action == "undo":
            return review.undo(project, args["event_id"], reviewer)
        if action == "approve":
            return review.approve(project, args["item_id"], reviewer)
        if action == "confirm-key":
            return review.confirm_key(project, args["item_id"], reviewer)
        if action == "override":
            return review.override(project, reviewer=reviewer, **args)
        return review.comment(project, reviewer=reviewer, **args)


class DecisionPanel(QWidget):
    """One item's review decisions and the buttons that make them."""

    undo_changed = Signal()  # what Ctrl+Z would undo here changed (ui.undo_menu.UndoOwner)

    def __init__(self, session: Session, parent: QWidget | None = None, cells: bool = True) -> None:
        super().__init__(parent)
        self.session = session
        self.item_id: str | None = None
        self.cell: tuple[str, str] | None = None  # (model, condition) shown in Review
        self.job: workers.Worker | None = None
        self.undo_target: ReviewEvent | None = None  # what Ctrl+Z undoes: the newest of mine

        self.reviewer = QLineEdit(settings.reviewer_name())
        self.reviewer.setPlaceholderText("your name (recorded with every decision)")
        self.reviewer.editingFinished.connect(self._reviewer_edited)
        self.approve_button = QPushButton("Approve")
        self.confirm_button = QPushButton("Confirm key")
        self.undo_button = QPushButton("Undo")
        self.approve_button.setToolTip("Mark the item ready (approved), recorded with your name")
        self.confirm_button.setToolTip("Record that you checked the key as it is now")
        self.undo_button.setToolTip("Take the selected decision back (it stays in the history)")
        self.cell_label = QLabel()
        self.cell_label.setWordWrap(True)
        self.score = QComboBox()
        self.score.setEditable(True)
        self.score.addItems(SCORE_CHOICES)
        self.score.setToolTip("correct (1), incorrect (0), or a number from 0 to 1")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("reason (required)")
        self.reason.setToolTip("Why the scorer's number is wrong; recorded with the override")
        self.override_button = QPushButton("Override")
        self.comment_text = QLineEdit()
        self.comment_text.setPlaceholderText("on the item, or the selected cell")
        self.comment_button = QPushButton("Comment")
        self.history = QListWidget()
        self.history.setWordWrap(True)
        self.history.setToolTip("Every decision on this item, oldest first")

        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel("Reviewer"), 0, 0)
        grid.addWidget(self.reviewer, 0, 1, 1, 3)
        grid.addWidget(self.approve_button, 1, 1)
        grid.addWidget(self.confirm_button, 1, 2)
        grid.addWidget(self.undo_button, 1, 3)
        if cells:
            grid.addWidget(self.cell_label, 2, 0, 1, 4)
            grid.addWidget(QLabel("Score"), 3, 0)
            grid.addWidget(self.score, 3, 1)
            grid.addWidget(self.reason, 3, 2)
            grid.addWidget(self.override_button, 3, 3)
        grid.addWidget(QLabel("Comment"), 4, 0)
        grid.addWidget(self.comment_text, 4, 1, 1, 2)
        grid.addWidget(self.comment_button, 4, 3)
        grid.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(grid)
        layout.addWidget(self.history, 1)
        for widget in (self.cell_label, self.score, self.reason, self.override_button):
            widget.setVisible(cells)

        self.approve_button.clicked.connect(lambda: self._item_decision("approve"))
        self.confirm_button.clicked.connect(lambda: self._item_decision("confirm-key"))
        self.override_button.clicked.connect(self._override)
        self.comment_button.clicked.connect(self._comment)
        self.undo_button.clicked.connect(self._undo)
        self.history.currentRowChanged.connect(lambda _: self._enable())
        session.item_changed.connect(self._item_changed)
        session.project_closed.connect(self._closed)  # a bound slot: dropped with the widget
        self.show_item(None)

    # -- what is shown -------------------------------------------------------

    def show_item(self, item_id: str | None) -> None:
        """Show ``item_id``'s decisions (None: nothing chosen)."""
        if item_id != self.item_id:
            self.cell = None
        self.item_id = item_id
        self.refresh()

    def show_cell(self, model: str, condition: str) -> None:
        """The Review cell an override or a cell comment applies to."""
        self.cell = (model, condition)
        self._enable()

    def refresh(self) -> None:
        """Re-read the item's trail (one small query)."""
        self.history.clear()
        project = self.session.project
        if self.item_id is not None and project is not None:
            for decision in review.history(project, self.item_id):
                row = QListWidgetItem(review.describe(decision))
                row.setData(Qt.ItemDataRole.UserRole, decision.event.id)
                row.setData(Qt.ItemDataRole.UserRole + 1, decision.undone_by is None)
                row.setData(Qt.ItemDataRole.UserRole + 2, decision.event.kind)
                if not decision.in_force:
                    font = QFont(row.font())
                    font.setStrikeOut(decision.undone_by is not None)
                    font.setItalic(True)
                    row.setFont(font)
                self.history.addItem(row)
            if not self.history.count():
                self.history.addItem(QListWidgetItem("No decisions yet."))
        self._find_undo_target()
        self._enable()

    def _find_undo_target(self) -> None:
        """The reviewer's newest decision in force on the item: what Ctrl+Z undoes here."""
        self.undo_target = None
        project = self.session.project
        if self.item_id is None or project is None:
            return
        with contextlib.suppress(review.ReviewError):  # none: nothing to undo
            who = review.reviewer_name(self.reviewer.text())
            self.undo_target = review.last_undoable(project, self.item_id, who)

    def _reviewer_edited(self) -> None:
        settings.set_reviewer_name(self.reviewer.text())
        self._find_undo_target()
        self._enable()

    # -- Edit ▸ Undo while the panel has focus (ui.undo_menu.UndoOwner) ----------

    def undo_text(self) -> str | None:
        """The decision Ctrl+Z would undo, as the Edit menu names it; None while there is none
        (or one is being recorded)."""
        event = self.undo_target
        if event is None or self.job is not None:
            return None
        what = DECISION_NAMES.get(event.kind, event.kind)
        cell = f" {event.model} · {event.condition}" if event.model else ""
        return f"{what}{cell} of {event.item_id} ({event.reviewer})"

    def undo_last(self) -> None:
        """Undo the reviewer's newest decision in force (appends a reversal, on a worker)."""
        if self.undo_target is not None and self.job is None:
            self._run("undo", {"event_id": self.undo_target.id})

    def _enable(self) -> None:
        has_item = self.item_id is not None and self.job is None
        for button in (self.approve_button, self.confirm_button, self.comment_button):
            button.setEnabled(has_item)
        self.override_button.setEnabled(has_item and self.cell is not None)
        model, condition = self.cell or ("", "")
        self.cell_label.setText(
            f"Selected cell: <b>{model} · {condition}</b>"
            if self.cell
            else "Select a cell to override its score."
        )
        row = self.history.currentItem()
        undoable = (
            row is not None
            and row.data(Qt.ItemDataRole.UserRole) is not None
            and bool(row.data(Qt.ItemDataRole.UserRole + 1))
            and row.data(Qt.ItemDataRole.UserRole + 2) != "undo"
        )
        self.undo_button.setEnabled(has_item and undoable)
        self.undo_changed.emit()

    def _closed(self) -> None:
        self.show_item(None)

    def _item_changed(self, item_id: str) -> None:
        if item_id == self.item_id:
            self.refresh()

    # -- decisions -----------------------------------------------------------

    def _item_decision(self, action: str) -> None:
        self._run(action, {"item_id": self.item_id})

    def _override(self) -> None:
        if self.cell is None:
            return
        model, condition = self.cell
        args = {
            "item_id": self.item_id,
            "model": model,
            "condition": condition,
            "value": self.score.currentText(),
            "reason": self.reason.text(),
        }
        self._run("override", args)

    def _comment(self) -> None:
        model, condition = self.cell or (None, None)
        args = {"item_id": self.item_id, "text": self.comment_text.text()}
        self._run("comment", args | {"model": model, "condition": condition})

    def _undo(self) -> None:
        row = self.history.currentItem()
        if row is not None and row.data(Qt.ItemDataRole.UserRole) is not None:
            self._run("undo", {"event_id": int(row.data(Qt.ItemDataRole.UserRole))})

    def _run(self, action: str, args: dict[str, Any]) -> None:
        project = self.session.project
        if project is None or self.item_id is None:
            return
        settings.set_reviewer_name(self.reviewer.text())
        try:
            who = review.reviewer_name(self.reviewer.text())
        except review.ReviewError as exc:
            show_error(exc, self, "Review")
            self.reviewer.setFocus()
            return
        job = workers.Worker(decide, project.folder, action, who, args)
        job.deliver_to(self, self._decided, self._failed, self._finished)
        self.job = workers.start(job)
        self._enable()

    def _decided(self, event: ReviewEvent) -> None:
        if event.kind == "override":
            self.reason.clear()
        if event.kind == "comment":
            self.comment_text.clear()
        self.session.status_message.emit(f"Recorded: {event.kind} on {event.item_id}")
        # statuses and counted scores changed: every view re-reads
        self.session.item_changed.emit(event.item_id)
        if event.kind in ("approve", "undo"):
            self.session.items_changed.emit()
        if event.kind in ("override", "undo"):
            self.session.responses_changed.emit()
        self.refresh()

    def _failed(self, exc: BaseException) -> None:
        show_error(exc, self, "Review")

    def _finished(self) -> None:
        self.job = None
        self._enable()
