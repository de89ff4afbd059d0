"""The Curate view: from a page of a textbook to a stored, keyed item.

Left, the project's items and sources. Centre, the source page (thumbnails,
zoom, proposed figures) and the erase preview. Right, the item's fields and
its answer key. Choosing a region erases it at once in a worker and shows a
*draft*; "Add item" stores it through ``labeler.curation``. Selecting a stored
item shows its saved images and key; edits to either are undoable. Every job
that opens a source document asks for the password of an encrypted PDF when
the core says one is needed (:class:`~labeler.errors.PasswordRequired`).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QImage, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from labeler.curation import item_warnings, key_after_box_edits, key_from_labels
from labeler.erase import EraseResult
from labeler.erase.edits import EraseEdits
from labeler.errors import EditConflict, LabelerError, PasswordRequired
from labeler.store import Project
from labeler.store.records import Box, Item, KeyEntry
from ui import workers
from ui.curate import documents
from ui.curate.commands import ImagesEdit, KeyEdit, stored_key_setter
from ui.curate.item_form import ItemForm
from ui.curate.items_panel import ItemsPanel
from ui.curate.key_editor import KeyEditor
from ui.curate.page_viewer import PageViewer
from ui.curate.preview import TOOLS, ErasePreview, Figure
from ui.curate.relink import RelinkBar
from ui.curate.scan_dialog import ScanDialog
from ui.curate.slots_panel import SlotsPanel
from ui.curate.versions import HeldVersions, ask_reload
from ui.errors import interactive, show_error
from ui.progress import ProgressPanel
from ui.review.decisions import DecisionPanel
from ui.session import Session
from ui.shortcuts import ShortcutRegistry

DPI = 200
BOX_EDIT = "Edit boxes"  # the undo text of a re-erase with new edits
PAGE_TAB, PREVIEW_TAB = 0, 1


@dataclass(frozen=True)
class Draft:
    """An erased region not yet stored as an item; ``serial`` tells drafts apart."""

    serial: int
    path: str
    page: int
    figure: Figure


def _warnings_html(project: Project, item: Item) -> str:
    """Damage MuPDF survived and key text still readable, as lines under the heading."""
    lines = [f"⚠ {w}" for w in item_warnings(project, item)]
    check = project.residual_checks.get(item.id)
    if check is not None and check.readable and not check.override_why:
        lines.append("⚠ key text still readable in the question: " + ", ".join(check.readable))
    return "".join(f"<br><span style='color:#c2410c'>{html.escape(x)}</span>" for x in lines)


def _credit(project: Project, item: Item) -> str:
    """The attribution line of the item's source (its licence requires it), or ""."""
    if item.source_id is None:
        return ""
    source = project.sources.get(item.source_id)
    return f"Credit: {source.attribution}" if source.attribution else ""


class CurateView(QWidget):
    """Items and sources | page viewer and erase preview | fields and key."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.item: Item | None = None
        self.draft: Draft | None = None
        self.info: documents.DocumentInfo | None = None
        self._jobs: set[workers.Worker] = set()
        self._serial = 0

        self.items = ItemsPanel(session, self)
        self.viewer = PageViewer(self)
        self.preview = ErasePreview(self)
        self.centre = QTabWidget(self)
        self.centre.setDocumentMode(True)
        self.centre.addTab(self.viewer, "Page")
        self.centre.addTab(self.preview, "Erase preview")
        self.decisions = DecisionPanel(session, self, cells=False)  # approvals, undoable
        self.centre.addTab(self.decisions, "Decisions")
        self.slots = SlotsPanel(session, self)
        self.centre.addTab(self.slots, "Slots")

        self.progress = ProgressPanel(self, compact=True)
        self.centre.setCornerWidget(self.progress, Qt.Corner.TopRightCorner)
        self.progress.cancelled.connect(self._cancelled)

        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        self.add_button = QPushButton("Add as item", self)
        self.add_button.setDefault(True)
        self.add_button.clicked.connect(self.add_draft)
        self.discard_button = QPushButton("Discard", self)
        self.discard_button.clicked.connect(self.discard_draft)
        self.versions = HeldVersions(self)  # every edit names the version it was loaded at
        # queued: the dialog (and a Reload) comes after the refused edit's own call returns
        self.versions.conflict.connect(self._edit_refused, Qt.ConnectionType.QueuedConnection)
        self.form = ItemForm(session, self.versions, self)
        self.key = KeyEditor(session, self)
        right = QWidget(self)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add_button, 1)
        buttons.addWidget(self.discard_button)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(10, 8, 10, 8)
        right_layout.setSpacing(8)
        right_layout.addWidget(self.heading)
        right_layout.addLayout(buttons)
        right_layout.addWidget(self.form)
        right_layout.addWidget(self.key, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.items)
        self.relink = RelinkBar(session, self)
        self.relink.relinked.connect(self._relinked)
        middle = QWidget(self)
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(0, 0, 0, 0)
        middle_layout.setSpacing(0)
        middle_layout.addWidget(self.relink)
        middle_layout.addWidget(self.centre, 1)
        self.splitter.addWidget(middle)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(1, False)
        self.splitter.setSizes([290, 480, 370])  # the key panel keeps whole names at 1024 px
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        self.items.item_chosen.connect(self.show_item)
        self.items.source_chosen.connect(self._source_picked)
        self.viewer.region_chosen.connect(self.erase_region)
        self.viewer.status.connect(session.status_message)
        self.preview.edits_changed.connect(self.erase_again)
        self.preview.label_selected.connect(lambda row: self.key.select_rows([row]))
        self.key.row_selected.connect(self.preview.highlight)
        session.project_opened.connect(self._project_opened)
        session.item_changed.connect(self._item_changed)
        self._show_side()

    # -- shortcuts and state (called by the main window) -------------------------

    def register_shortcuts(self, registry: ShortcutRegistry) -> None:
        """Register this view's actions so the curator can rebind them."""

        def action(action_id: str, text: str, slot, key: str, widget: QWidget) -> None:
            act = QAction(text, widget)
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            act.triggered.connect(slot)
            widget.addAction(act)
            registry.register(action_id, act, key)

        registry.register("curate.toggle_original", self.preview.toggle_action, "Space")
        action("curate.add_item", "Add draft as item", self.add_draft, "Ctrl+Return", self)
        action("curate.next_item", "Next item", lambda: self.items.step(1), "Alt+Down", self)
        action("curate.previous_item", "Previous item", lambda: self.items.step(-1), "Alt+Up", self)
        action("curate.next_page", "Next page", lambda: self.viewer.step(1), "PgDown", self.viewer)
        action(
            "curate.previous_page",
            "Previous page",
            lambda: self.viewer.step(-1),
            "PgUp",
            self.viewer,
        )
        for tool, key in (
            ("inspect", "I"),
            ("keep", "K"),
            ("extra_boxes", "B"),
            ("removed_boxes", "R"),
            ("mask_strokes", "P"),
        ):
            action(
                f"curate.tool.{tool}",
                f"Tool: {TOOLS[tool][0]}",
                lambda _=False, t=tool: self.preview.set_tool(t),
                key,
                self.preview,
            )
        for action_id, preview_action, key in (
            ("curate.brush.smaller", self.preview.smaller_action, "["),
            ("curate.brush.larger", self.preview.larger_action, "]"),
            ("curate.clear_mask", self.preview.clear_mask_action, ""),
        ):
            registry.register(action_id, preview_action, key)
        for action_id, text, slot, key in (
            ("key.add", "Add label", self.key.add_row, "Ctrl+Shift+N"),
            (
                "key.delete",
                "Delete labels",
                self.key.delete_rows,
                QKeySequence(QKeySequence.StandardKey.Delete).toString(),
            ),
            ("key.merge", "Merge labels", self.key.merge_rows, "Ctrl+M"),
            ("key.split", "Split label", self.key.split_row, "Ctrl+Shift+M"),
            ("key.up", "Move label up", lambda: self.key.move(-1), "Ctrl+Up"),
            ("key.down", "Move label down", lambda: self.key.move(1), "Ctrl+Down"),
        ):
            action(action_id, text, slot, key, self.key)

    def save_state(self, settings: QSettings) -> None:
        """Remember the panel sizes."""
        settings.setValue("curate/splitter", self.splitter.saveState())

    def restore_state(self, settings: QSettings) -> None:
        """Restore the panel sizes."""
        state = settings.value("curate/splitter")
        if state is not None:
            self.splitter.restoreState(state)

    def shutdown(self) -> None:
        """Drop queued jobs when the window closes."""
        for job in list(self._jobs):
            workers.withdraw(job, workers.document_pool())
        self.viewer.thumbnails.set_document(None)

    # -- sources -------------------------------------------------------------

    def add_document(self, path: str) -> None:
        """Open a PDF/SVG/image, record it as a source and show it."""
        self._run_document(
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
        self._run_document(
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

    # -- erasing -------------------------------------------------------------

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
            self._run_document(
                path,
                documents.reerase_item,
                lambda pw: (str(project.folder), item_id, edits, pw, expected),
                lambda done: self._reerased(*done, before, edits),
                "Erasing again…",
                on_error=lambda exc: self._reerase_failed(item_id, figure, expected, exc),
            )

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

    def _erase(
        self, path: str, page: int, clip: Box, edits: EraseEdits, previous: Draft | None = None
    ) -> None:
        """Erase into a new draft; with ``previous``, the same draft again with new edits."""
        args = (path, page, clip, DPI, edits)
        self._run_document(
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
        """Push the re-erase and the key change it implies as one undoable step."""
        self.versions.wrote(item_id, version)
        project = self.session.require_project()
        after = project.items.get(item_id)
        key = project.items.key(item_id)
        new_key = key_after_box_edits(
            key, EraseEdits.from_json(before.erase_edits), edits, harvested
        )
        stack = self.session.undo_stack
        stack.beginMacro(BOX_EDIT)
        try:
            stack.push(ImagesEdit(self.session, self.versions, item_id, before, after))
            if new_key != key:
                setter = stored_key_setter(self.session, self.versions, item_id)
                stack.push(KeyEdit(setter, key, new_key, BOX_EDIT))
        finally:
            stack.endMacro()
        self.session.item_changed.emit(item_id)
        changed = len(new_key) - len(key)
        self.session.status_message.emit(
            "Erased again"
            + (
                f"; the key {'gained' if changed > 0 else 'lost'} {abs(changed)} label(s)"
                if changed
                else ""
            )
        )

    # -- drafts --------------------------------------------------------------

    def _draft_key_setter(self, serial: int):
        """Saves a key into draft ``serial`` only: undoing an edit of an older draft is a no-op."""

        def apply(entries: list[KeyEntry]) -> None:
            if self.draft is None or self.draft.serial != serial:
                return
            figure = replace(self.draft.figure, key=tuple(entries))
            self.draft = replace(self.draft, figure=figure)
            self.preview.set_key(entries)
            self.key.load(entries, apply)

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
        self._run_document(
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

    # -- items ---------------------------------------------------------------

    def show_item(self, item_id: str) -> None:
        """Show a stored item: images, key, fields, and its page in the viewer."""
        project = self.session.require_project()
        self.draft = None
        self.item = project.items.get(item_id)
        self.versions.hold(self.item)
        self.preview.set_figure(self._figure_of(self.item))
        self.preview.set_attribution(_credit(project, self.item))
        self.centre.setCurrentIndex(PREVIEW_TAB)
        self._show_side()
        if self.item.source_id is not None and self.item.page is not None:
            self.show_source(self.item.source_id, self.item.page, self.item.clip, quiet=True)
            self.items.select_source(self.item.source_id)

    def _figure_of(self, item: Item) -> Figure | None:
        if item.question_asset is None or item.answer_asset is None:
            return None
        project = self.session.require_project()
        question = project.assets.read(item.question_asset)
        clip = item.clip
        if clip is None:  # an imported image: place it at the origin
            image = QImage.fromData(question)
            clip = (0.0, 0.0, image.width() * 72 / item.dpi, image.height() * 72 / item.dpi)
        return Figure(
            question_png=question,
            answer_png=project.assets.read(item.answer_asset),
            clip=clip,
            dpi=item.dpi,
            key=tuple(project.items.key(item.id)),
            edits=EraseEdits.from_json(item.erase_edits),
            method=item.erase_method,
        )

    def _item_changed(self, item_id: str) -> None:
        if self.item is None or self.item.id != item_id:
            return
        project = self.session.require_project()
        fresh = project.items.get(item_id)
        # edits can change without the images (a stroke over blank paper): the
        # preview must still hold them, or the next edit would drop this one
        if (fresh.question_asset, fresh.answer_asset, fresh.erase_edits, fresh.erase_method) != (
            self.item.question_asset,
            self.item.answer_asset,
            self.item.erase_edits,
            self.item.erase_method,
        ):
            self.preview.set_figure(self._figure_of(fresh), refit=False)
        else:
            self.preview.set_key(project.items.key(item_id))
        self.item = fresh
        self.versions.hold(fresh)  # this window wrote it (any view), and shows it as it is now
        self._show_side()

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

    def _show_side(self) -> None:
        """Fill the right-hand panel for the draft, the item, or nothing."""
        project = self.session.project
        if self.draft is not None:
            self.heading.setText(f"<b>Draft</b> from page {self.draft.page} · not stored yet")
            self.form.show_item(None)
            self.key.load(list(self.draft.figure.key), self._draft_key_setter(self.draft.serial))
        elif self.item is not None and project is not None:
            self.heading.setText(
                f"<b>{html.escape(self.item.subject or 'Item')}</b> · page {self.item.page or '–'}"
                + _warnings_html(project, self.item)
            )
            self.form.show_item(self.item)
            self.key.load(
                project.items.key(self.item.id),
                stored_key_setter(self.session, self.versions, self.item.id),
            )
        else:
            self.heading.setText("Choose an item, or a region on a page to erase.")
            self.form.show_item(None)
            self.key.load([], None)
        self.add_button.setVisible(self.draft is not None)
        self.discard_button.setVisible(self.draft is not None)
        shown = self.item if self.draft is None and project is not None else None
        self.decisions.show_item(shown.id if shown is not None else None)
        self.slots.follow(self.item.id if self.item is not None and self.draft is None else None)

    def _project_opened(self) -> None:
        self.item, self.draft, self.info = None, None, None
        self.relink.show_for(None)
        self.viewer.set_document(None)
        self.preview.set_figure(None)
        self._show_side()
        if self.items.model.items:
            self.items.select_item(self.items.model.items[0].id)
        elif self.items.sources.rowCount():
            self.items.sources.selectRow(0)

    # -- jobs ----------------------------------------------------------------

    def _run(
        self, fn, args: tuple, on_result, message: str, on_error=None, pass_control: bool = False
    ) -> workers.Worker:
        """Run a document job the curator waits for, with progress and Cancel; errors: dialogs."""
        job = workers.Worker(fn, *args, pass_control=pass_control).deliver_to(
            self,
            result=on_result,
            error=on_error or (lambda exc: show_error(exc, self)),
            finished=lambda: self._job_done(job),
        )
        self._jobs.add(job)
        self.progress.follow(job, message)
        self.session.status_message.emit(message)
        workers.start(job, workers.document_pool(), workers.PRIORITY_USER)
        return job

    def _run_document(
        self,
        path: str,
        fn,
        args_for,
        on_result,
        message: str,
        on_error=None,
        password: str | None = None,
        pass_control: bool = False,
    ) -> None:
        """:meth:`_run` a job that opens ``path``, with its password if it is encrypted.

        ``args_for(password)`` builds the job's arguments. The password is the
        one this session already knows for ``path``; if the core says it is
        missing or wrong, the curator is asked (the error shown above the field)
        and the job runs again. It is remembered only once it opened the document.
        """
        if password is None:
            password = self.session.passwords.get(path)

        def opened(result) -> None:
            if password is not None:
                self.session.passwords[path] = password
            on_result(result)

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, PasswordRequired):
                (on_error or (lambda e: show_error(e, self)))(exc)
                return
            retry = self._ask_password(exc)
            if retry is not None:
                self._run_document(
                    path, fn, args_for, on_result, message, on_error, retry, pass_control
                )

        self._run(fn, args_for(password), opened, message, failed, pass_control)

    def _ask_password(self, exc: PasswordRequired) -> str | None:
        """The curator's password for the PDF ``exc`` names, or None on Cancel."""
        if not interactive():
            show_error(exc, self)
            return None
        password, ok = QInputDialog.getText(
            self, "Encrypted PDF", f"{exc}\n\nPassword:", QLineEdit.EchoMode.Password
        )
        return password if ok else None

    def _job_done(self, job: workers.Worker) -> None:
        self._jobs.discard(job)

    def _cancelled(self) -> None:
        """Cancel pressed: an add stopped after its store still shows up in the lists."""
        self.session.status_message.emit("Cancelled")
        self.session.items_changed.emit()
