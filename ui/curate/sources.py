"""Curate's source documents: add one, show its page, relink a moved one, scan it for figures.

A mixin of :class:`~ui.curate.view.CurateView` (it shares the view's widgets and the document
on screen, ``info``): these are the actions that bring a document to the page viewer, and the
bulk "scan for figures" that adds many items from it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget

from labeler.errors import LabelerError
from labeler.store.records import Box, Item
from ui.curate import documents
from ui.curate.items_panel import ItemsPanel
from ui.curate.jobs import DocumentJobs
from ui.curate.page_viewer import PageViewer
from ui.curate.relink import RelinkBar
from ui.curate.scan_dialog import ScanDialog
from ui.session import Session

PAGE_TAB, PREVIEW_TAB = 0, 1


class SourceActions:
    """Open, show and scan source documents (the view's ``info`` is the one on screen)."""

    session: Session
    info: documents.DocumentInfo | None
    item: Item | None
    items: ItemsPanel
    viewer: PageViewer
    relink: RelinkBar
    centre: QTabWidget
    jobs: DocumentJobs

    def add_document(self, path: str) -> None:
        """Open a PDF/SVG/image, record it as a source and show it."""
        self.jobs.run_document(
            path,
            documents.describe,
            lambda pw: (path, pw),
            self._document_added,
            "Opening document…",
        )

    def _document_added(self, info: documents.DocumentInfo) -> None:
        project = self.session.require_project()
        source = project.sources.add(info.path, kind=info.kind, page_count=len(info.page_sizes))
        self.items.reload_sources()
        self.items.select_source(source.id)
        self.centre.setCurrentIndex(PAGE_TAB)
        self._show_document(info, 1)
        self.session.status_message.emit(f"Added {info.path} ({len(info.page_sizes)} pages)")

    def _source_picked(self, source_id: int) -> None:
        self.centre.setCurrentIndex(PAGE_TAB)
        self.show_source(source_id)

    def show_source(
        self, source_id: int, page: int = 1, region: Box | None = None, quiet: bool = False
    ) -> None:
        """Show a source document's ``page`` (and highlight ``region``).

        ``quiet``: the document is only context (an item was picked), so if it
        cannot be opened — moved, renamed — say so in the status bar instead of
        a dialog on every click; the item's stored images need no source.
        """
        sources = self.session.require_project().sources
        source = sources.get(source_id)
        self.relink.show_for(source, has_copy=source.copy_asset is not None)
        try:
            path = str(sources.document_path(source))
        except LabelerError as exc:
            if not quiet:
                raise
            self._source_unavailable(exc)
            return
        if self.info is not None and self.info.path == path:
            self._go_to(page, region)
            return
        self.jobs.run_document(
            path,
            documents.describe,
            lambda pw: (path, pw),
            lambda info: self._show_document(info, page, region),
            "Opening document…",
            on_error=self._source_unavailable if quiet else None,
        )

    def _relinked(self, source_id: int) -> None:
        """Show the relinked source's page again (the item's, if one is selected)."""
        self.info = None
        self.items.reload_sources()
        if self.item is not None and self.item.source_id == source_id and self.item.page:
            self.show_source(source_id, self.item.page, self.item.clip)
        else:
            self.show_source(source_id)

    def _source_unavailable(self, exc: BaseException) -> None:
        self.info = None
        self.viewer.set_document(None)
        self.session.status_message.emit(f"Source page not shown: {exc}")

    def _show_document(
        self, info: documents.DocumentInfo, page: int, region: Box | None = None
    ) -> None:
        self.info = info
        self.viewer.set_document(info, page)
        self.viewer.show_region(region)

    def _go_to(self, page: int, region: Box | None) -> None:
        if self.viewer.page != page:
            self.viewer.show_page(page)
        self.viewer.show_region(region)

    def scan_document(self) -> ScanDialog | None:
        """List the labelled figures of the document on screen, to add them in bulk."""
        if self.info is None:
            self.session.status_message.emit("Open a document first, then scan it for figures")
            return None
        dialog = ScanDialog(
            self.session, self.info.path, self.session.passwords.get(self.info.path), self
        )
        dialog.setModal(False)
        dialog.show()
        return dialog
