"""Curate's erase actions: a region of the page into a draft, a draft or an item erased again.

A mixin of :class:`~ui.curate.view.CurateView` (it shares the view's draft, item and widgets).
Choosing a region erases it at once in a worker and shows a *draft*; an edit in the erase
preview (keep a label, add or remove a box, paint a mask) erases the draft again, or re-erases
the stored item through the core and pushes the change as one undo step
(:func:`~ui.curate.edit_wiring.push_reerase`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QTabWidget

from labeler.curation import key_after_box_edits, key_from_labels
from labeler.erase import EraseResult
from labeler.erase.edits import EraseEdits
from labeler.store.records import Box, Item, KeyEntry
from ui.curate import documents
from ui.curate.edit_wiring import BOX_EDIT, push_reerase
from ui.curate.items_panel import ItemsPanel
from ui.curate.jobs import DocumentJobs
from ui.curate.key_editor import KeyEditor
from ui.curate.page_viewer import PageViewer
from ui.curate.preview import ErasePreview, Figure
from ui.curate.sources import PREVIEW_TAB
from ui.curate.versions import HeldVersions
from ui.session import Session

DPI = 200


@dataclass(frozen=True)
class Draft:
    """An erased region not yet stored as an item; ``serial`` tells drafts apart."""

    serial: int
    path: str
    page: int
    figure: Figure


class EraseActions:
    """Erase regions into drafts and erase drafts or items again with the preview's edits.

    Uses the view's ``_show_side`` and the conflict handling's ``_reerase_failed``.
    """

    session: Session
    info: documents.DocumentInfo | None
    item: Item | None
    draft: Draft | None
    items: ItemsPanel
    viewer: PageViewer
    preview: ErasePreview
    centre: QTabWidget
    key: KeyEditor
    versions: HeldVersions
    jobs: DocumentJobs
    _serial: int

    def erase_region(self, clip: Box) -> None:
        """Erase ``clip`` of the page on screen into a new draft."""
        if self.info is None:
            return
        path, page = self.info.path, self.viewer.page
        self._erase(path, page, clip, EraseEdits())

    def erase_again(self, figure: Figure) -> None:
        """Re-erase the draft or the stored item with the preview's new edits."""
        if self.draft is not None:
            self._erase(
                self.draft.path, self.draft.page, figure.clip, figure.edits, previous=self.draft
            )
        elif self.item is not None:
            project = self.session.require_project()
            before = self.item
            edits = figure.edits
            item_id = self.item.id
            expected = self.versions.expected(item_id)
            path = (
                ""
                if before.source_id is None
                else str(project.sources.document_path(project.sources.get(before.source_id)))
            )
            self.jobs.run_document(
                path,
                documents.reerase_item,
                lambda pw: (str(project.folder), item_id, edits, pw, expected),
                lambda done: self._reerased(*done, before, edits),
                "Erasing again…",
                on_error=lambda exc: self._reerase_failed(item_id, figure, expected, exc),
            )

    def _erase(
        self, path: str, page: int, clip: Box, edits: EraseEdits, previous: Draft | None = None
    ) -> None:
        """Erase into a new draft; with ``previous``, the same draft again with new edits."""
        args = (path, page, clip, DPI, edits)
        self.jobs.run_document(
            path,
            documents.erase,
            lambda pw: (*args, pw),
            lambda result: self._erased(path, page, edits, result, previous),
            "Erasing labels…",
        )

    def _erased(
        self,
        path: str,
        page: int,
        edits: EraseEdits,
        result: EraseResult,
        previous: Draft | None = None,
    ) -> None:
        harvested = key_from_labels(result.labels, {})
        if previous is not None and self.draft is not None and self.draft.serial == previous.serial:
            previous = self.draft  # key edits made while it was erasing count too
        # a re-erased draft keeps the curator's key; the box edit changes only its boxes' rows
        key = list(previous.figure.key) if previous is not None else harvested
        figure = Figure(
            question_png=result.question_png,
            answer_png=result.answer_png,
            clip=tuple(result.clip),
            dpi=result.dpi,
            key=tuple(key),
            edits=edits,
            method=result.method,
        )
        refit = self.draft is None or self.draft.figure.clip != figure.clip
        self._serial += 1
        self.draft = Draft(self._serial, path, page, figure)
        self.item = None
        self.items.clear_item()
        self.preview.set_figure(figure, refit=refit)
        self.preview.set_attribution("")  # a draft is not stored: its source has no licence yet
        self.centre.setCurrentIndex(PREVIEW_TAB)
        self._show_side()
        if previous is not None:
            new_key = key_after_box_edits(key, previous.figure.edits, edits, harvested)
            self.key.model.commit(new_key, BOX_EDIT)
        self.session.status_message.emit(
            f"Erased {len(self.draft.figure.key)} label(s) by {result.method}; check the key,"
            " then Add as item"
        )

    def _reerased(
        self,
        item_id: str,
        harvested: list[KeyEntry],
        version: int,
        before: Item,
        edits: EraseEdits,
    ) -> None:
        """Hold the version the worker wrote and push the re-erase as one undoable step."""
        self.versions.wrote(item_id, version)
        changed = push_reerase(self.session, self.versions, before, edits, harvested)
        self.session.item_changed.emit(item_id)
        self.session.status_message.emit(
            "Erased again"
            + (
                f"; the key {'gained' if changed > 0 else 'lost'} {abs(changed)} label(s)"
                if changed
                else ""
            )
        )
