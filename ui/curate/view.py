"""The Curate view: from a page of a textbook to a stored, keyed item.

Left, the project's items and sources. Centre, the source page (thumbnails,
zoom, proposed figures) and the erase preview. Right, the item's fields and
its answer key. Selecting a stored item shows its saved images and key; edits
to either are undoable. The view's actions live in one module per job, mixed
in here: source documents (:mod:`ui.curate.sources`), erasing
(:mod:`ui.curate.erasing`), drafts (:mod:`ui.curate.drafts`) and edit
conflicts (:mod:`ui.curate.conflicts`); document jobs run through
:class:`~ui.curate.jobs.DocumentJobs` and the keys are registered by
:mod:`ui.curate.actions`.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from labeler.curation import item_warnings
from labeler.erase.edits import EraseEdits
from labeler.store import Project
from labeler.store.records import Item
from ui import workers
from ui.curate import actions, documents
from ui.curate.commands import stored_key_setter
from ui.curate.conflicts import ConflictHandling
from ui.curate.drafts import DraftActions
from ui.curate.erasing import Draft, EraseActions
from ui.curate.item_form import ItemForm
from ui.curate.items_panel import ItemsPanel
from ui.curate.jobs import DocumentJobs
from ui.curate.key_editor import KeyEditor
from ui.curate.page_viewer import PageViewer
from ui.curate.preview import ErasePreview, Figure
from ui.curate.relink import RelinkBar
from ui.curate.slots_panel import SlotsPanel
from ui.curate.sources import PREVIEW_TAB, SourceActions
from ui.curate.versions import HeldVersions
from ui.progress import ProgressPanel
from ui.review.decisions import DecisionPanel
from ui.session import Session
from ui.shortcuts import ShortcutRegistry

#: The items list's least width. The centre's pages want more than a 1024-1280 px window
#: leaves, so the splitter keeps the side panels at their least widths there: 265 px (20 more
#: than the filters need, taken from the centre, whose tabs still read whole) lets subjects
#: wrap to two lines at 1024 px (the demo's: "cell membrane"), not three or four.
ITEMS_MIN = 265


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


class CurateView(SourceActions, EraseActions, DraftActions, ConflictHandling, QWidget):
    """Items and sources | page viewer and erase preview | fields and key."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.item: Item | None = None
        self.draft: Draft | None = None
        self.info: documents.DocumentInfo | None = None
        self._serial = 0  # tells drafts apart

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
        self.jobs = DocumentJobs(session, self.progress, self)

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
        self.versions.stale.connect(self._step_refused, Qt.ConnectionType.QueuedConnection)
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
        self.items.setMinimumWidth(ITEMS_MIN)  # room for subjects when the window is narrow
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
        actions.register_shortcuts(self, registry)

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
        self.jobs.withdraw_all()
        self.viewer.thumbnails.set_document(None)

    # -- items ---------------------------------------------------------------

    def show_item(self, item_id: str) -> None:
        """Show a stored item: key and fields now, images and its page in the next turn.

        Both halves with the paint each causes were the longest turn of opening a 100k-answer
        project (the first item is shown as the list arrives): 37-55 ms of GUI-thread work
        together, 28-38 ms apart (bench/scale.py, issue #17).
        """
        project = self.session.require_project()
        self.draft = None
        self.item = project.items.get(item_id)
        self.versions.hold(self.item)
        self.centre.setCurrentIndex(PREVIEW_TAB)
        self._show_side()
        workers.next_turn(lambda: self._show_figure(item_id), self)

    def _show_figure(self, item_id: str) -> None:
        """The preview and source page of ``item_id``, if it is still the item shown."""
        item = self.item
        if self.draft is not None or item is None or item.id != item_id:
            return
        project = self.session.require_project()
        self.preview.set_figure(self._figure_of(item))
        self.preview.set_attribution(_credit(project, item))
        if item.source_id is not None and item.page is not None:
            self.show_source(item.source_id, item.page, item.clip, quiet=True)
            self.items.select_source(item.source_id)

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
        # the first source's page in a turn of its own: opening already resets every view
        workers.next_turn(self._show_first, self)

    def _show_first(self) -> None:
        """Show the first item, or else the first source, of the project just opened —
        unless the curator picked one meanwhile."""
        if self.items.current_item_id() is not None or self.items.sources.selectedItems():
            return
        if self.items.model.items:
            self.items.select_item(self.items.model.items[0].id)
        elif self.items.sources.rowCount():
            self.items.sources.selectRow(0)
