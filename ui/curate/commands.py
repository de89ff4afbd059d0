"""Undoable edits of an item: its answer key and its fields.

Each command stores the value before and after, and its ``redo``/``undo`` just
write one of them through the core (``project.items.set_key`` or
:func:`labeler.readiness.update_item`), so undo is exactly as safe as any save: one
transaction, nothing half-applied. Every edit is saved at once, so there is no
"unsaved" state to lose. If the first write fails, the command marks itself
obsolete, so the undo stack drops it instead of listing an edit that never
happened, and the error (a ``LabelerError`` saying why) reaches the window's
error dialog.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand

from labeler.readiness import update_item
from labeler.store.records import Item, KeyEntry
from ui.session import Session

KeySetter = Callable[[list[KeyEntry]], None]


class SavedEdit(QUndoCommand):
    """A command whose first ``redo`` is a save that may fail."""

    def redo(self) -> None:
        try:
            self.apply_after()
        except Exception:
            self.setObsolete(True)  # QUndoStack.push then discards it
            raise

    def undo(self) -> None:
        self.apply_before()

    def apply_after(self) -> None:
        raise NotImplementedError

    def apply_before(self) -> None:
        raise NotImplementedError


class KeyEdit(SavedEdit):
    """Replace a key (stored item or a not-yet-added draft) with a new version."""

    def __init__(
        self, apply: KeySetter, before: Sequence[KeyEntry], after: Sequence[KeyEntry], text: str
    ) -> None:
        super().__init__(text)
        self._apply = apply
        self.before, self.after = list(before), list(after)

    def apply_after(self) -> None:
        self._apply(self.after)

    def apply_before(self) -> None:
        self._apply(self.before)


class FieldEdit(SavedEdit):
    """Change one item field (subject, tier, pattern, status, notes)."""

    def __init__(self, session: Session, item_id: str, field: str, before: str, after: str) -> None:
        super().__init__(f"Set {field}")
        self.session, self.item_id, self.field = session, item_id, field
        self.before, self.after = before, after

    def _write(self, value: str) -> None:
        update_item(self.session.require_project(), self.item_id, **{self.field: value})
        self.session.item_changed.emit(self.item_id)
        self.session.items_changed.emit()

    def apply_after(self) -> None:
        self._write(self.after)

    def apply_before(self) -> None:
        self._write(self.before)


def stored_key_setter(session: Session, item_id: str) -> KeySetter:
    """A setter that saves the key of a stored item and tells every view."""

    def apply(entries: list[KeyEntry]) -> None:
        session.require_project().items.set_key(item_id, entries)
        session.item_changed.emit(item_id)
        session.items_changed.emit()

    return apply


class ImagesEdit(QUndoCommand):
    """A re-erase that already happened (in a worker); undo/redo swap the stored images.

    Erasing is slow, so the command is pushed *after* the worker stored the new
    images, and only flips between the two stored versions (fast, one
    transaction each); its first ``redo`` does nothing.
    """

    def __init__(self, session: Session, item_id: str, before: Item, after: Item) -> None:
        super().__init__("Erase again")
        self.session, self.item_id = session, item_id
        self.before, self.after = before, after
        self._done = True

    def _write(self, item: Item) -> None:
        project = self.session.require_project()
        read = project.assets.read
        project.items.set_images(
            self.item_id,
            question_png=read(item.question_asset),
            answer_png=read(item.answer_asset),
            question_pdf=read(item.question_pdf_asset) if item.question_pdf_asset else None,
            erase_method=item.erase_method,
            erase_edits=item.erase_edits,
        )
        self.session.item_changed.emit(self.item_id)

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self._write(self.after)

    def undo(self) -> None:
        self._write(self.before)
