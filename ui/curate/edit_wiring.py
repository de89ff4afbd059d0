"""How Curate's edits of a stored item become undo steps.

A re-erase with new box edits changes two things the curator sees as one edit: the item's
images (already stored by the worker) and the key rows of the boxes that came or went. Both are
pushed as one :class:`~ui.curate.commands.BoxEdit`, so one Ctrl+Z takes the whole box edit back
(or, if either part changed elsewhere since, neither).
"""

from __future__ import annotations

from labeler.curation import key_after_box_edits
from labeler.erase.edits import EraseEdits
from labeler.store.records import Item, KeyEntry
from ui.curate.commands import BoxEdit, ImagesEdit, KeyEdit, key_part, stored_key_setter
from ui.curate.versions import HeldVersions
from ui.session import Session

BOX_EDIT = "Edit boxes"  # the undo text of a re-erase with new edits


def push_reerase(
    session: Session,
    versions: HeldVersions,
    before: Item,
    edits: EraseEdits,
    harvested: list[KeyEntry],
) -> int:
    """Push a re-erase that the worker stored (``before`` -> the item now) and the key change
    it implies as one undoable step; the number of labels the key gained (negative: lost)."""
    project = session.require_project()
    item_id = before.id
    after = project.items.get(item_id)
    key = project.items.key(item_id)
    new_key = key_after_box_edits(key, EraseEdits.from_json(before.erase_edits), edits, harvested)
    images = ImagesEdit(session, versions, item_id, before, after)
    setter = stored_key_setter(session, versions, item_id)
    key_edit = KeyEdit(setter, key, new_key, BOX_EDIT) if new_key != key else None
    session.undo_stack.push(BoxEdit(BOX_EDIT, images, key_edit, key_part(session, item_id)))
    return len(new_key) - len(key)
