"""Undoable edits of an item: its answer key and its fields.

Each command stores the value before and after, and its ``redo``/``undo`` just
write one of them through the core (``project.items.set_key`` or
:func:`labeler.readiness.update_item`), so undo is exactly as safe as any save: one
transaction, nothing half-applied. Every edit is saved at once, so there is no
"unsaved" state to lose. If the first write fails, the command marks itself
obsolete, so the undo stack drops it instead of listing an edit that never
happened, and the error (a ``LabelerError`` saying why) reaches the window's
error dialog.

Every write of a stored item names the version this window holds for it
(:class:`~ui.curate.versions.HeldVersions`), so an edit, undo or redo made after
someone else changed the item is refused, never written over theirs. Such a
refused write (:class:`~labeler.errors.EditConflict`) is already reported by
the held versions (the view asks Reload / Keep editing); the command just drops
itself from the stack, whether it was a first save, an undo or a redo.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand

from labeler.errors import EditConflict
from labeler.readiness import update_item
from labeler.store.records import Item, KeyEntry
from ui.curate.versions import HeldVersions
from ui.session import Session

KeySetter = Callable[[list[KeyEntry]], None]


class SavedEdit(QUndoCommand):
    """A command whose first ``redo`` is a save that may fail."""

    def redo(self) -> None:
        try:
            self.apply_after()
        except EditConflict:
            self.setObsolete(True)  # reported already; the stack discards the command
        except Exception:
            self.setObsolete(True)  # QUndoStack.push then discards it
            raise

    def undo(self) -> None:
        try:
            self.apply_before()
        except EditConflict:
            self.setObsolete(True)  # reported already; QUndoStack.undo discards the command

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

    def __init__(
        self,
        session: Session,
        versions: HeldVersions,
        item_id: str,
        field: str,
        before: str,
        after: str,
    ) -> None:
        super().__init__(f"Set {field}")
        self.session, self.versions, self.item_id, self.field = session, versions, item_id, field
        self.before, self.after = before, after

    def _write(self, value: str) -> None:
        project = self.session.require_project()
        self.versions.write(
            self.item_id,
            lambda expected: update_item(
                project, self.item_id, expected_version=expected, **{self.field: value}
            ),
        )
        self.session.item_changed.emit(self.item_id)
        self.session.items_changed.emit()

    def apply_after(self) -> None:
        self._write(self.after)

    def apply_before(self) -> None:
        self._write(self.before)


def stored_key_setter(session: Session, versions: HeldVersions, item_id: str) -> KeySetter:
    """A setter that saves the key of a stored item (at its held version) and tells every view."""

    def apply(entries: list[KeyEntry]) -> None:
        project = session.require_project()
        versions.write(
            item_id,
            lambda expected: project.items.set_key(item_id, entries, expected_version=expected),
        )
        session.item_changed.emit(item_id)
        session.items_changed.emit()

    return apply


class ImagesEdit(QUndoCommand):
    """A re-erase that already happened (in a worker); undo/redo swap the stored images.

    Erasing is slow, so the command is pushed *after* the worker stored the new
    images, and only flips between the two stored versions (fast, one
    transaction each); its first ``redo`` does nothing.
    """

    def __init__(
        self, session: Session, versions: HeldVersions, item_id: str, before: Item, after: Item
    ) -> None:
        super().__init__("Erase again")
        self.session, self.versions, self.item_id = session, versions, item_id
        self.before, self.after = before, after
        self._done = True

    def _write(self, item: Item) -> None:
        project = self.session.require_project()
        read = project.assets.read
        try:
            self.versions.write(
                self.item_id,
                lambda expected: project.items.set_images(
                    self.item_id,
                    question_png=read(item.question_asset),
                    answer_png=read(item.answer_asset),
                    question_pdf=read(item.question_pdf_asset) if item.question_pdf_asset else None,
                    erase_method=item.erase_method,
                    erase_edits=item.erase_edits,
                    expected_version=expected,
                ),
            )
        except EditConflict:
            self.setObsolete(True)  # reported already; the stack discards the command
            return
        self.session.item_changed.emit(self.item_id)

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self._write(self.after)

    def undo(self) -> None:
        self._write(self.before)
