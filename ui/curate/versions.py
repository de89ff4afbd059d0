"""Which version of each stored item this window is editing, and what to do when it is stale.

Two curators (or the GUI and ``labeler items edit-key``) may edit one item. The store refuses
a write that names an older version than the item's (:class:`~labeler.errors.EditConflict`,
decision 0023), so every Curate edit passes the version it was loaded at: the version is held
here when the view reads the item, advanced by each of this window's own writes (so undo and
redo keep working), and reported as a conflict when someone else wrote in between. The
curator then chooses Reload (read the item again) or Keep editing (nothing is overwritten:
the next edit is refused the same way until they reload).

A version says only *that* the item changed, so after a Reload it would let an old undo step
write over what the other editor did. Each step therefore also remembers what it left in the
part of the item it writes (the key, a field, the images), read back after its write, and its
next undo or redo first checks that the part still holds exactly that (:class:`Part`); if not,
the step is refused (:class:`StaleStep`) and dropped, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from labeler.errors import EditConflict, LabelerError
from labeler.store.records import Item
from ui.errors import interactive

RELOAD, KEEP_EDITING = "Reload", "Keep editing"


class _Unknown:
    """What a step left when it cannot know (never written yet, or overwritten at once)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


#: A step that has not written yet; its first write is checked by the version alone.
UNWRITTEN = _Unknown()
#: Someone else wrote the item right after the step did: its next undo or redo is refused.
OVERWRITTEN = _Unknown()


class StaleStep(LabelerError):
    """An undo or redo step whose item no longer holds what the step left there."""


@dataclass(frozen=True)
class Part:
    """The part of a stored item an undo step writes, as the curator calls it and as stored.

    ``read`` returns the part as stored now, then the item's version, read in that order: if
    the version is still the one held, the part read is this window's own write.
    """

    name: str  # "key", "subject", "images" …
    read: Callable[[], tuple[object, int]]
    show: Callable[[object], str] | None = None  # how a value reads in a message (None: not)


@dataclass(frozen=True)
class Step:
    """One write of an undo step: what it is called, undo or redo, and what it left before."""

    text: str
    verb: str  # "undo", "redo"
    left: object = UNWRITTEN


class HeldVersions(QObject):
    """The version of each item as this window last read or wrote it."""

    conflict = Signal(str, str)  # item id, the store's message
    stale = Signal(str, str)  # item id, why an undo or redo step was refused

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._held: dict[str, int] = {}

    def hold(self, item: Item) -> None:
        """The view (re)read ``item``: its edits start from this version."""
        self._held[item.id] = item.version

    def expected(self, item_id: str) -> int:
        """The version the next write of ``item_id`` must find.

        Only an item the view read can be edited, so one never held is a bug: it is not
        written unchecked.
        """
        if item_id not in self._held:
            raise RuntimeError(f"item {item_id} is edited but was never read by this window")
        return self._held[item_id]

    def wrote(self, item_id: str, version: int) -> None:
        """This window's own write left the item at ``version``."""
        self._held[item_id] = version

    def check(self, item_id: str, part: Part, step: Step) -> None:
        """Raise :class:`StaleStep` (and report it) if ``part`` no longer holds what ``step``
        left. A newer version than the one held is not judged here: the store refuses it."""
        if step.left is UNWRITTEN:
            return
        found, version = part.read()
        if version == self.expected(item_id) and found != step.left:
            message = _stale_message(item_id, part, step, found)
            self.stale.emit(item_id, message)
            raise StaleStep(message)

    def write(
        self,
        item_id: str,
        save: Callable[[int], object],
        part: Part | None = None,
        step: Step | None = None,
    ) -> object:
        """Run ``save(expected_version)``, one store write of the item, and hold its new version.

        The store adds exactly one to the version it checked, so the new version is known
        without reading the item again (a read could already see someone else's next write).
        On :class:`EditConflict` nothing was written: the conflict is reported (the view shows
        the dialog) and re-raised, so the undo command that tried knows it did not happen.

        With ``part`` and ``step`` (an undo step's write), the part must first still hold what
        the step left (``step.left``) — else :class:`StaleStep` is reported (``stale``) and
        raised, nothing written — and the part is read back after the write: the return value
        is what the step leaves now, for its next write to check (``UNWRITTEN`` without a part).
        """
        expected = self.expected(item_id)
        if part is not None and step is not None:
            self.check(item_id, part, step)
        try:
            save(expected)
        except EditConflict as exc:
            self.conflict.emit(item_id, str(exc))
            raise
        self.wrote(item_id, expected + 1)
        if part is None:
            return UNWRITTEN
        found, version = part.read()
        return found if version == expected + 1 else OVERWRITTEN


def _stale_message(item_id: str, part: Part, step: Step, found: object) -> str:
    """Why ``step`` cannot be undone or redone: the item's part is not what it left."""
    values = ""
    if part.show is not None:
        left = "unknown" if step.left is OVERWRITTEN else part.show(step.left)
        values = f" (now {part.show(found)}; this step left {left})"
    return (
        f"Cannot {step.verb} “{step.text}”: item {item_id}'s {part.name} changed elsewhere "
        f"since this step{values}. Nothing was changed, and the step is dropped from the undo "
        "history; make the change again if it is still wanted."
    )


def ask_reload(parent: QWidget | None, item_id: str, message: str) -> bool:
    """Tell the curator their edit of ``item_id`` was refused; True if they chose Reload."""
    if not interactive():  # offscreen runs: nobody answers; keep what is on screen
        print(f"labeler: edit conflict: {message}")
        return False
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Item changed elsewhere")
    box.setText(
        f"Someone else changed item {item_id} since you opened it (another window, curator "
        "or a labeler command). Your change was not saved, and theirs was not overwritten."
    )
    box.setInformativeText(
        "Reload shows the item as it is now, so you can make your change again. "
        "Keep editing leaves the screen as it is; edits of this item are refused until you "
        "reload."
    )
    box.setDetailedText(message)
    reload = box.addButton(RELOAD, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(KEEP_EDITING, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(reload)
    box.exec()
    return box.clickedButton() is reload
