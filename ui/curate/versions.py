"""Which version of each stored item this window is editing, and what to do when it is stale.

Two curators (or the GUI and ``labeler items edit-key``) may edit one item. The store refuses
a write that names an older version than the item's (:class:`~labeler.errors.EditConflict`,
decision 0023), so every Curate edit passes the version it was loaded at: the version is held
here when the view reads the item, advanced by each of this window's own writes (so undo and
redo keep working), and reported as a conflict when someone else wrote in between. The
curator then chooses Reload (read the item again) or Keep editing (nothing is overwritten:
the next edit is refused the same way until they reload).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from labeler.errors import EditConflict
from labeler.store.records import Item
from ui.errors import interactive

RELOAD, KEEP_EDITING = "Reload", "Keep editing"


class HeldVersions(QObject):
    """The version of each item as this window last read or wrote it."""

    conflict = Signal(str, str)  # item id, the store's message

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

    def write(self, item_id: str, save: Callable[[int], object]) -> None:
        """Run ``save(expected_version)``, one store write of the item, and hold its new version.

        The store adds exactly one to the version it checked, so the new version is known
        without reading the item again (a read could already see someone else's next write).
        On :class:`EditConflict` nothing was written: the conflict is reported (the view shows
        the dialog) and re-raised, so the undo command that tried knows it did not happen.
        """
        expected = self.expected(item_id)
        try:
            save(expected)
        except EditConflict as exc:
            self.conflict.emit(item_id, str(exc))
            raise
        self.wrote(item_id, expected + 1)


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
