"""The source page viewer: thumbnails, the page, proposed figures, the chosen region.

The page is rendered in a worker at the resolution the current zoom needs
(re-rendered shortly after zooming stops; meanwhile the old picture is scaled),
so zooming stays smooth and sharp. Proposed figure regions from the core are
drawn dashed; clicking one, or dragging a rectangle, chooses the region to
erase (``region_chosen``).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from labeler.store.records import Box
from ui import workers
from ui.curate import documents
from ui.curate.canvas import BoxItem, Canvas, ZoomControls, outline, tool_button
from ui.curate.thumbnails import ThumbnailStrip
from ui.theme import OVERLAY

MIN_DPI, MAX_DPI = 36, 300


class PageCanvas(Canvas):
    """One page with its proposals and the selected region."""

    region_chosen = Signal(tuple)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info: documents.DocumentInfo | None = None
        self.page = 0
        self.rendered_dpi = 0.0
        self._render_job: workers.Worker | None = None
        self._overlays: list[BoxItem] = []
        self._selection: BoxItem | None = None
        self._rerender = QTimer(self, singleShot=True, interval=150)
        self._rerender.timeout.connect(self.render)
        self.zoom_changed.connect(lambda _: self._rerender.start())
        self.rect_drawn.connect(self.region_chosen)

    def show_page(self, info: documents.DocumentInfo, page: int) -> None:
        """Show ``page`` of ``info`` (keeping the zoom), clearing overlays."""
        first = self.info is None or self.info.path != info.path
        self.info, self.page = info, page
        w, h = info.page_sizes[page - 1]
        self.set_page_rect(QRectF(0, 0, w, h))
        blank = QImage(max(1, round(w)), max(1, round(h)), QImage.Format.Format_RGB888)
        blank.fill(QColor("#ffffff"))
        self.set_picture(blank, (0, 0), 72)
        self.rendered_dpi = 0.0
        self.set_proposals([])
        self.set_selection(None)
        if first:
            self.request_fit()
        self.render()

    def render(self) -> None:
        """Render the page at the resolution the zoom needs (in a worker)."""
        if self.info is None:
            return
        dpi = min(MAX_DPI, max(MIN_DPI, 72 * self.zoom() * self.devicePixelRatioF()))
        if abs(dpi - self.rendered_dpi) < 1:
            return
        if self._render_job is not None:
            workers.withdraw(self._render_job, workers.document_pool())
        key = (self.info.path, self.page)
        job = workers.Worker(documents.render, *key, dpi, password=self.info.password)
        job.deliver_to(self, result=lambda image: self._rendered(key, dpi, image))
        self._render_job = job
        workers.start(job, workers.document_pool(), workers.PRIORITY_VIEW)

    def _rendered(self, key: tuple[str, int], dpi: float, image: QImage) -> None:
        if self.info is None or key != (self.info.path, self.page):
            return
        self.set_picture(image, (0, 0), dpi)
        self.rendered_dpi = dpi

    def proposals(self) -> list[Box]:
        """The proposed regions on screen."""
        return [item.box for item in self._overlays]

    def set_proposals(self, proposals: list[tuple[Box, str]]) -> None:
        """Draw the core's proposed figure regions as dashed, clickable boxes."""
        for item in self._overlays:
            self.scene().removeItem(item)
        pen = outline(OVERLAY["proposal"], 1.5, Qt.PenStyle.DashLine)
        self._overlays = [
            BoxItem(box, pen, self.region_chosen.emit, f"{tip} — click to erase it")
            for box, tip in proposals
        ]
        for item in self._overlays:
            item.setZValue(10)
            self.scene().addItem(item)

    def set_selection(self, box: Box | None) -> None:
        """Highlight the chosen region (or clear it)."""
        if self._selection is not None:
            self.scene().removeItem(self._selection)
            self._selection = None
        if box is not None:
            fill = QColor(OVERLAY["selection"])
            fill.setAlpha(28)
            self._selection = BoxItem(box, outline(OVERLAY["selection"], 2.5), None, "", fill)
            self._selection.setZValue(20)
            self.scene().addItem(self._selection)


class PageViewer(QWidget):
    """Thumbnails + page canvas + a compact toolbar."""

    region_chosen = Signal(tuple)
    page_changed = Signal(int)
    status = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info: documents.DocumentInfo | None = None
        self.region: Box | None = None
        self._propose_job: workers.Worker | None = None
        self.thumbnails = ThumbnailStrip(self)
        self.canvas = PageCanvas(self)
        self.page_box = QSpinBox(self)
        self.page_box.setMinimum(1)
        self.page_box.setKeyboardTracking(False)
        self.page_box.valueChanged.connect(self.show_page)
        self.page_count = QLabel("of 0", self)
        self.zoom = ZoomControls(self.canvas, self)
        self.canvas.region_chosen.connect(self.choose_region)
        self.thumbnails.page_chosen.connect(self.show_page)

        bar = QHBoxLayout()
        bar.setContentsMargins(8, 6, 8, 6)
        bar.setSpacing(4)
        bar.addWidget(tool_button(self, "‹", "Previous page", lambda: self.step(-1)))
        bar.addWidget(tool_button(self, "›", "Next page", lambda: self.step(1)))
        bar.addWidget(QLabel("Page", self))
        bar.addWidget(self.page_box)
        bar.addWidget(self.page_count)
        bar.addStretch(1)
        bar.addWidget(self.zoom)
        self.hint = QLabel("Click a dashed figure or drag a rectangle around one.", self)
        self.hint.setStyleSheet("color: palette(placeholder-text);")
        self.hint.setContentsMargins(8, 0, 8, 4)

        body = QHBoxLayout()
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(0)
        body.addWidget(self.thumbnails)
        body.addWidget(self.canvas, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.hint)
        layout.addLayout(body, 1)

    def set_document(self, info: documents.DocumentInfo | None, page: int = 1) -> None:
        """Show a document (None clears the viewer)."""
        self.info = info
        self.thumbnails.set_document(info)
        if info is None:
            self.page_count.setText("of 0")
            return
        self.page_box.blockSignals(True)
        self.page_box.setMaximum(len(info.page_sizes))
        self.page_box.blockSignals(False)
        self.page_count.setText(f"of {len(info.page_sizes)}")
        self.canvas.info = None  # fit the new document's width
        self.show_page(page)

    def show_page(self, page: int) -> None:
        """Go to 1-based ``page`` and ask the core for its figure proposals."""
        if self.info is None or not 1 <= page <= len(self.info.page_sizes):
            return
        self.page_box.blockSignals(True)
        self.page_box.setValue(page)
        self.page_box.blockSignals(False)
        self.thumbnails.select_page(page)
        self.canvas.show_page(self.info, page)
        self.region = None
        self.page_changed.emit(page)
        self._propose(page)

    def step(self, delta: int) -> None:
        """Previous/next page."""
        self.show_page(self.page_box.value() + delta)

    @property
    def page(self) -> int:
        """The page on screen (1-based)."""
        return self.canvas.page

    def choose_region(self, box: Box) -> None:
        """Make ``box`` the region to erase."""
        self.region = tuple(box)
        self.canvas.set_selection(self.region)
        self.region_chosen.emit(self.region)

    def show_region(self, box: Box | None) -> None:
        """Highlight ``box`` (e.g. the clip of the selected item) and scroll to it."""
        self.region = box
        self.canvas.set_selection(box)
        if box is not None:
            self.canvas.ensureVisible(
                QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1]), 20, 20
            )

    def _propose(self, page: int) -> None:
        if self._propose_job is not None:
            workers.withdraw(self._propose_job, workers.document_pool())
        key = (self.info.path, page)
        job = workers.Worker(documents.propose, *key, password=self.info.password)
        job.deliver_to(
            self,
            result=lambda proposals: self._proposed(key, proposals),
            error=lambda exc: self.status.emit(f"No figure proposals: {exc}"),
        )
        self._propose_job = job
        workers.start(job, workers.document_pool(), workers.PRIORITY_DETAIL)

    def _proposed(self, key: tuple[str, int], proposals: list[tuple[Box, str]]) -> None:
        if self.info is not None and key == (self.info.path, self.canvas.page):
            self.canvas.set_proposals(proposals)
            if proposals:
                self.status.emit(f"{len(proposals)} figure(s) proposed on page {key[1]}")
