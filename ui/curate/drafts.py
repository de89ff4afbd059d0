"""Curate's drafts: an erased region's key edited before it is stored, then added or discarded.

A mixin of :class:`~ui.curate.view.CurateView` (it shares the view's draft and widgets).
"Add item" stores the draft through ``labeler.curation`` (the core erases it again with the
same edits and reads the question back), then selects the new item in the list.
"""

from __future__ import annotations

from dataclasses import replace

from labeler.store.records import Item, KeyEntry
from ui.curate import documents
from ui.curate.commands import KeySetter
from ui.curate.erasing import Draft
from ui.curate.items_panel import ItemsPanel
from ui.curate.jobs import DocumentJobs
from ui.curate.key_editor import KeyEditor
from ui.curate.preview import ErasePreview
from ui.curate.versions import UNWRITTEN, Step
from ui.session import Session


class DraftActions:
    """Edit, add and discard the draft (uses the view's ``show_item`` and ``_show_side``)."""

    session: Session
    item: Item | None
    draft: Draft | None
    items: ItemsPanel
    preview: ErasePreview
    key: KeyEditor
    jobs: DocumentJobs

    def _draft_key_setter(self, serial: int) -> KeySetter:
        """Saves a key into draft ``serial`` only: undoing an edit of an older draft is a no-op."""

        def apply(entries: list[KeyEntry], _step: Step) -> object:
            if self.draft is None or self.draft.serial != serial:
                return UNWRITTEN
            figure = replace(self.draft.figure, key=tuple(entries))
            self.draft = replace(self.draft, figure=figure)
            self.preview.set_key(entries)
            self.key.load(entries, apply)
            return UNWRITTEN  # nothing stored: nobody else can change a draft

        return apply

    def add_draft(self) -> None:
        """Store the draft as an item (erased again by the core, with the same edits)."""
        if self.draft is None:
            return
        project = self.session.require_project()
        draft = self.draft
        edits = draft.figure.edits
        args = (
            str(project.folder),
            draft.path,
            draft.page,
            draft.figure.clip,
            edits,
            list(draft.figure.key),
        )
        self.jobs.run_document(
            draft.path,
            documents.add_item,
            lambda pw: (*args, pw),
            self._added,
            "Adding item (erasing, reading the question back)…",
            pass_control=True,
        )

    def _added(self, item_id: str) -> None:
        self.draft = None
        self.session.items_changed.emit()
        self.items.reload_sources()
        self.items.select_item(item_id)
        if self.items.current_item_id() != item_id:  # hidden by the filters
            self.show_item(item_id)
        self.session.status_message.emit(f"Added item {item_id}")

    def discard_draft(self) -> None:
        """Forget the draft."""
        self.draft = None
        self.preview.set_figure(None)
        self._show_side()
