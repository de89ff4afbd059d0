"""Curate's answer to an edit refused because someone else changed the item.

A mixin of :class:`~ui.curate.view.CurateView`. Every write names the version the window holds
(:class:`~ui.curate.versions.HeldVersions`); a refused one (:class:`~labeler.errors.EditConflict`)
asks Reload / Keep editing. Reload re-reads the item in place (the preview keeps its zoom);
Keep editing changes nothing, so the next edit of the item is refused the same way.
An undo or redo step whose part of the item changed elsewhere (seen after a Reload) is refused
with a message saying so (:class:`~ui.curate.versions.StaleStep`).
"""

from __future__ import annotations

from labeler.errors import EditConflict
from labeler.store.records import Item
from ui.curate.erasing import Draft
from ui.curate.preview import Figure
from ui.curate.versions import HeldVersions, StaleStep, ask_reload
from ui.errors import show_error
from ui.session import Session


class ConflictHandling:
    """Reload / Keep editing (uses the view's ``erase_again`` and ``_item_changed``)."""

    session: Session
    item: Item | None
    draft: Draft | None
    versions: HeldVersions

    def _reerase_failed(
        self, item_id: str, figure: Figure, expected: int, exc: BaseException
    ) -> None:
        """A refused re-erase is someone else's edit (Reload / Keep editing), unless this
        window itself wrote the item while it was erasing (a field typed meanwhile): then it
        erases again from the new version. Any other error is a dialog."""
        if not isinstance(exc, EditConflict):
            show_error(exc, self)
        elif (
            self.versions.expected(item_id) != expected
            and self.draft is None
            and self.item is not None
            and self.item.id == item_id
        ):
            self.erase_again(figure)
        else:
            self.versions.conflict.emit(item_id, str(exc))

    def _edit_refused(self, item_id: str, message: str) -> None:
        """Someone else changed the item: Reload reads it again, Keep editing changes nothing."""
        if not ask_reload(self, item_id, message):
            return
        if self.item is not None and self.item.id == item_id:
            self._item_changed(item_id)  # re-read in place: the preview keeps its zoom
        else:  # an undo of an item not on screen (a draft may be): hold it as it is now
            self.versions.hold(self.session.require_project().items.get(item_id))
        self.session.items_changed.emit()  # the lists show their changes too
        self.session.status_message.emit(f"Reloaded item {item_id}")

    def _step_refused(self, item_id: str, message: str) -> None:
        """An old undo step would overwrite another editor's change: say it was not applied."""
        self.session.status_message.emit(f"Not applied: item {item_id} changed elsewhere")
        show_error(StaleStep(message), self, "Undo")
