"""The selected item's fields: subject, tier, pattern, status, notes.

A field is saved when the curator finishes editing it (Enter or leaving the
field; a choice in a list saves at once), as one undoable
:class:`~ui.curate.commands.FieldEdit`, at the version of the item the view
holds (:class:`~ui.curate.versions.HeldVersions`): a field someone else changed
meanwhile is refused and reported, not overwritten.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from labeler.readiness import (
    accept_residual_labels,
    check_is_current,
    check_residual_labels,
    ready_blockers,
)
from labeler.store.records import PATTERNS, STATUSES, TIERS, Item
from ui import workers
from ui.curate.commands import FieldEdit
from ui.curate.versions import HeldVersions
from ui.errors import show_error
from ui.progress import ProgressPanel
from ui.session import Session

PATTERN_TIPS = {
    "A": "A — unlabelled original",
    "B": "B — printed labels erased",
    "C": "C — letter markers on the figure",
}


def _check_question(folder: str, item_id: str) -> None:
    """The residual-label check in a job, with its own project connection."""
    from labeler.store import Project

    with Project.open(folder) as project:
        check_residual_labels(project, item_id)


class NotesEdit(QPlainTextEdit):
    """Multi-line notes that save when focus leaves."""

    def __init__(self, save, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._save = save

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self._save()
        super().focusOutEvent(event)


class ItemForm(QWidget):
    """Edits one stored item's fields through the undo stack."""

    def __init__(
        self, session: Session, versions: HeldVersions, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.session, self.versions = session, versions
        self.item: Item | None = None
        self.id_label = QLabel("—", self)
        self.id_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.subject = QLineEdit(self)
        self.subject.setPlaceholderText("e.g. human heart, plant cell")
        self.subject.editingFinished.connect(
            lambda: self._save("subject", self.subject.text().strip())
        )
        self.combos: dict[str, QComboBox] = {}
        for field, values in (("tier", TIERS), ("pattern", PATTERNS), ("status", STATUSES)):
            combo = QComboBox(self)
            for value in values:
                combo.addItem(
                    PATTERN_TIPS.get(value, value) if field == "pattern" else value, value
                )
            combo.activated.connect(lambda _, f=field, c=combo: self._save(f, c.currentData()))
            self.combos[field] = combo
        self.notes = NotesEdit(lambda: self._save("notes", self.notes.toPlainText()), self)
        self.notes.setPlaceholderText("Anything a reviewer should know")
        self.notes.setFixedHeight(56)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(6)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("Item", self.id_label)
        form.addRow("Subject", self.subject)
        form.addRow("Tier", self.combos["tier"])
        form.addRow("Pattern", self.combos["pattern"])
        form.addRow("Status", self.combos["status"])
        self.check_progress = ProgressPanel(self)  # reading the question back before `ready`
        form.addRow(self.check_progress)
        form.addRow("Notes", self.notes)
        self.show_item(None)

    def show_item(self, item: Item | None) -> None:
        """Show ``item``'s fields (None disables the form)."""
        self.item = item
        for widget in (self.subject, self.notes, *self.combos.values()):
            widget.setEnabled(item is not None)
        if item is None:
            self.id_label.setText("No item selected")
            self.subject.clear()
            self.notes.clear()
            return
        self.id_label.setText(item.id)
        if self.subject.text() != item.subject:
            self.subject.setText(item.subject)
        for field, combo in self.combos.items():
            combo.setCurrentIndex(combo.findData(getattr(item, field)))
        if self.notes.toPlainText() != item.notes:
            self.notes.setPlainText(item.notes)

    def _save(self, field: str, value: str) -> None:
        if self.item is None or getattr(self.item, field) == value:
            return
        if field == "status" and value == "ready":
            project = self.session.require_project()
            if not check_is_current(project, self.item.id):
                self._check_then_save(self.item)  # reading the question back may need OCR
                return
            if not self._ready_allowed(self.item):
                self.show_item(self.item)  # the status list goes back to what is stored
                return
        self.session.undo_stack.push(
            FieldEdit(
                self.session,
                self.versions,
                self.item.id,
                field,
                getattr(self.item, field),
                value,
            )
        )

    def _check_then_save(self, item: Item) -> None:
        """Read an unchecked question back in a job (OCR takes seconds), then mark it ready."""
        self.show_item(item)
        self.session.status_message.emit("Reading the question back for key text…")
        folder = str(self.session.require_project().folder)
        job = workers.Worker(_check_question, folder, item.id).deliver_to(
            self,
            result=lambda _: self._save("status", "ready") if self.item == item else None,
            error=lambda exc: show_error(exc, self),
        )
        job.signals.cancelled.connect(lambda: self._check_cancelled(item))
        self.check_progress.follow(job, "Reading the question back for key text…")
        workers.start(job, workers.general_pool(), workers.PRIORITY_USER)

    def _check_cancelled(self, item: Item) -> None:
        """Cancel pressed: the item keeps its status (the list shows it again)."""
        if self.item == item:
            self.show_item(item)
        self.session.status_message.emit(f"Not marked ready: the check of {item.id} was cancelled")

    def _ready_allowed(self, item: Item) -> bool:
        """The residual-label rule: key text still readable needs the curator's reason."""
        project = self.session.require_project()
        blockers = ready_blockers(project, item.id)
        if not blockers:
            return True
        listed = ", ".join(f"“{name}”" for name in blockers)
        reason, ok = QInputDialog.getText(
            self,
            "Key text is still readable",
            f"The question still shows {listed}.\nErase it (add a box, re-erase) — or, to mark "
            "the item ready anyway, say why this is acceptable (recorded with your name):",
        )
        if not ok or not reason.strip():
            return False
        accept_residual_labels(project, item.id, reason)
        return True
