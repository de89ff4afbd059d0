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

A version cannot tell an old step from a new one after Reload, so each command also keeps
what its last write left in the item (the key, the field, the images; read back, so it is
what the store made of it) and its next undo or redo is refused (:class:`StaleStep`, reported
by the held versions) if the item no longer holds exactly that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand

from labeler.errors import EditConflict
from labeler.readiness import update_item
from labeler.store import Project
from labeler.store.records import Item, KeyEntry
from ui.curate.versions import UNWRITTEN, HeldVersions, Part, StaleStep, Step
from ui.session import Session

#: Saves a key for an undo step's write and returns what the step left (see ``Step.left``).
KeySetter = Callable[[list[KeyEntry], Step], object]
REFUSED = (EditConflict, StaleStep)  # reported already by the held versions


class SavedEdit(QUndoCommand):
    """A command whose first ``redo`` is a save that may fail; ``left`` is what it last wrote."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.left: object = UNWRITTEN

    def redo(self) -> None:
        try:
            self.left = self.apply(True, self.step("redo"))
        except REFUSED:
            self.setObsolete(True)  # the stack discards the command
        except Exception:
            self.setObsolete(True)  # QUndoStack.push then discards it
            raise

    def undo(self) -> None:
        try:
            self.left = self.apply(False, self.step("undo"))
        except REFUSED:
            self.setObsolete(True)  # QUndoStack.undo discards the command

    def step(self, verb: str) -> Step:
        """This command's next write, checked against what its last one left."""
        return Step(self.text(), verb, self.left)

    def apply(self, after: bool, step: Step) -> object:
        """Write the value after (or before) the edit; return what the write left."""
        raise NotImplementedError


class KeyEdit(SavedEdit):
    """Replace a key (stored item or a not-yet-added draft) with a new version."""

    def __init__(
        self, apply: KeySetter, before: Sequence[KeyEntry], after: Sequence[KeyEntry], text: str
    ) -> None:
        super().__init__(text)
        self._apply = apply
        self.before, self.after = list(before), list(after)

    def apply(self, after: bool, step: Step) -> object:
        return self._apply(self.after if after else self.before, step)


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

    def apply(self, after: bool, step: Step) -> object:
        project = self.session.require_project()
        value = self.after if after else self.before
        part = Part(self.field, lambda: _field(project, self.item_id, self.field), _quoted)
        left = self.versions.write(
            self.item_id,
            lambda expected: update_item(
                project, self.item_id, expected_version=expected, **{self.field: value}
            ),
            part,
            step,
        )
        self.session.item_changed.emit(self.item_id)
        self.session.items_changed.emit()
        return left


def _field(project: Project, item_id: str, field: str) -> tuple[object, int]:
    item = project.items.get(item_id)
    return getattr(item, field), item.version


def _quoted(value: object) -> str:
    return f"“{value}”"


def _stored_key(project: Project, item_id: str) -> tuple[object, int]:
    key = project.items.key(item_id)  # first: a write after it moves the version read next
    return key, project.items.get(item_id).version


def _key_names(key: object) -> str:
    names = [e.name or e.marker or "?" for e in key] if isinstance(key, list) else []
    return ", ".join(names) if names else "no labels"


def key_part(session: Session, item_id: str) -> Part:
    """A stored item's key, as an undo step that writes it checks it."""
    project = session.require_project()
    return Part("key", lambda: _stored_key(project, item_id), _key_names)


def stored_key_setter(session: Session, versions: HeldVersions, item_id: str) -> KeySetter:
    """A setter that saves the key of a stored item (at its held version) and tells every view."""

    def apply(entries: list[KeyEntry], step: Step) -> object:
        project = session.require_project()
        left = versions.write(
            item_id,
            lambda expected: project.items.set_key(item_id, entries, expected_version=expected),
            key_part(session, item_id),
            step,
        )
        session.item_changed.emit(item_id)
        session.items_changed.emit()
        return left

    return apply


def _images(item: Item) -> tuple[object, ...]:
    """What an image swap writes (assets are named by their bytes, so equal means same)."""
    return (
        item.question_asset,
        item.answer_asset,
        item.question_pdf_asset,
        item.erase_method,
        item.erase_edits,
    )


def _stored_images(project: Project, item_id: str) -> tuple[object, int]:
    item = project.items.get(item_id)
    return _images(item), item.version


class ImagesEdit(SavedEdit):
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
        self.left = _images(after)  # the worker's write, at the version the view holds
        self._done = True

    def part(self) -> Part:
        project = self.session.require_project()
        return Part("images", lambda: _stored_images(project, self.item_id))

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        super().redo()

    def apply(self, after: bool, step: Step) -> object:
        item = self.after if after else self.before
        project = self.session.require_project()
        read = project.assets.read
        left = self.versions.write(
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
            self.part(),
            step,
        )
        self.session.item_changed.emit(self.item_id)
        return left


class BoxEdit(QUndoCommand):
    """A re-erase and the key change it implies: undone and redone together or not at all.

    Both parts are checked before either writes, so a key changed elsewhere does not leave
    the images undone and the key not. The push (first ``redo``) saves the key change; if that
    save fails, the step keeps the re-erase alone (it is stored already).
    """

    def __init__(self, text: str, images: ImagesEdit, key: KeyEdit | None, key_part: Part) -> None:
        super().__init__(text)
        self.images, self.key, self.key_part = images, key, key_part
        self._pushed = False

    def redo(self) -> None:
        if not self._pushed:
            self._pushed = True
            self.images.redo()
            if self.key is not None:
                try:
                    self.key.redo()
                finally:
                    if self.key.isObsolete():
                        self.key = None
            return
        if not self._refused("redo"):
            self._run([self.images, self.key], "redo")

    def undo(self) -> None:
        if not self._refused("undo"):
            self._run([self.key, self.images], "undo")

    def _run(self, steps: list[SavedEdit | None], verb: str) -> None:
        for step in steps:
            if step is not None:
                getattr(step, verb)()
                if step.isObsolete():  # refused (reported): the pair is no longer whole
                    self.setObsolete(True)
                    return

    def _refused(self, verb: str) -> bool:
        versions, item_id = self.images.versions, self.images.item_id
        try:
            versions.check(item_id, self.images.part(), self.images.step(verb))
            if self.key is not None:
                versions.check(item_id, self.key_part, self.key.step(verb))
        except StaleStep:
            self.setObsolete(True)  # reported already; the stack discards the whole step
            return True
        return False
