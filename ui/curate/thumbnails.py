"""Page thumbnails that render only when they are seen.

The list view asks its model for a row's picture only when it paints that row
(``uniformItemSizes`` keeps it from asking about the others), so the model
starts a render job the first time a row is painted and shows a blank page of
the right shape meanwhile. Jobs for rows scrolled out of sight before they ran
are withdrawn, and finished thumbnails are kept in a bounded cache, so a
1,000-page book costs a few dozen renders, not a thousand.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from ui import workers
from ui.curate import documents

THUMB_WIDTH = 84
CACHE_SIZE = 400


def framed(pixmap: QPixmap) -> QPixmap:
    """``pixmap`` with a thin grey edge, so white pages stand out from the list."""
    painter = QPainter(pixmap)
    painter.setPen(QColor("#b8bec6"))
    painter.drawRect(0, 0, pixmap.width() - 1, pixmap.height() - 1)
    painter.end()
    return pixmap


class ThumbnailModel(QAbstractListModel):
    """One row per page of the open document."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.info: documents.DocumentInfo | None = None
        self._cache: OrderedDict[int, QPixmap] = OrderedDict()
        self._pending: dict[int, workers.Worker] = {}
        self._blank: dict[tuple[int, int], QPixmap] = {}
        self.renders_started = 0  # for tests and the bench: proves rendering is lazy

    def set_document(self, info: documents.DocumentInfo | None) -> None:
        """Show ``info``'s pages (or nothing), dropping every old job and picture."""
        self.beginResetModel()
        for worker in self._pending.values():
            workers.withdraw(worker, workers.document_pool())
        self._pending.clear()
        self._cache.clear()
        self.info = info
        self.endResetModel()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.info is None else len(self.info.page_sizes)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.info is None:
            return None
        page = index.row() + 1
        if role == Qt.ItemDataRole.DisplayRole:
            return str(page)
        if role == Qt.ItemDataRole.DecorationRole:
            pixmap = self._cache.get(page)
            if pixmap is not None:
                self._cache.move_to_end(page)
                return pixmap
            self._request(page)
            return self._blank_for(page)
        if role == Qt.ItemDataRole.ToolTipRole:
            w, h = self.info.page_sizes[page - 1]
            return f"Page {page} · {w:.0f} × {h:.0f} pt"
        return None

    def thumb_size(self, page: int) -> QSize:
        """The pixel size of ``page``'s thumbnail (fixed width, page aspect)."""
        w, h = self.info.page_sizes[page - 1]
        return QSize(THUMB_WIDTH, max(1, round(THUMB_WIDTH * h / max(w, 1))))

    def is_rendered(self, page: int) -> bool:
        """Whether ``page``'s real thumbnail (not the blank) is ready."""
        return page in self._cache

    def keep_only(self, first: int, last: int) -> None:
        """Withdraw queued jobs for pages outside ``first..last`` (scrolled away)."""
        for page in [p for p in self._pending if not first <= p <= last]:
            workers.withdraw(self._pending.pop(page), workers.document_pool())

    def _blank_for(self, page: int) -> QPixmap:
        size = self.thumb_size(page)
        key = (size.width(), size.height())
        if key not in self._blank:
            pixmap = QPixmap(size)
            pixmap.fill(QColor("#ffffff"))
            self._blank[key] = framed(pixmap)
        return self._blank[key]

    def _request(self, page: int) -> None:
        if page in self._pending or self.info is None:
            return
        w, _ = self.info.page_sizes[page - 1]
        dpi = 72 * THUMB_WIDTH / max(w, 1)
        path = self.info.path
        worker = workers.Worker(documents.render, path, page, dpi, password=self.info.password)
        worker.deliver_to(
            self,
            result=lambda image: self._done(path, page, image),
            finished=lambda: self._finished(page, worker),
        )
        self._pending[page] = worker
        self.renders_started += 1
        workers.start(worker, workers.document_pool(), workers.PRIORITY_BACKGROUND)

    def _finished(self, page: int, worker: workers.Worker) -> None:
        if self._pending.get(page) is worker:
            del self._pending[page]

    def _done(self, path: str, page: int, image: QImage) -> None:
        if self.info is None or self.info.path != path:
            return  # a job for a document that is no longer shown
        self._cache[page] = framed(QPixmap.fromImage(image))
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        index = self.index(page - 1)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.DecorationRole])


class ThumbnailStrip(QListView):
    """A vertical strip of page thumbnails; emits ``page_chosen`` (1-based)."""

    page_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.thumbs = ThumbnailModel(self)
        self.setModel(self.thumbs)
        self.setViewMode(QListView.ViewMode.IconMode)
        self.setFlow(QListView.Flow.TopToBottom)
        self.setWrapping(False)
        self.setMovement(QListView.Movement.Static)
        self.setUniformItemSizes(True)  # the view never asks every row for its size
        self.setIconSize(QSize(THUMB_WIDTH, round(THUMB_WIDTH * 1.42)))
        self.setSpacing(4)
        self.setStyleSheet("QListView { background: palette(window); border: none; }")
        self.setFixedWidth(THUMB_WIDTH + 34)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.clicked.connect(lambda index: self.page_chosen.emit(index.row() + 1))
        self._prune = QTimer(self, singleShot=True, interval=120)
        self._prune.timeout.connect(self._prune_hidden)
        self.verticalScrollBar().valueChanged.connect(lambda _: self._prune.start())

    def set_document(self, info: documents.DocumentInfo | None) -> None:
        """Show ``info``'s pages."""
        self.thumbs.set_document(info)
        if info is not None and info.page_sizes:
            w, h = info.page_sizes[0]
            self.setIconSize(QSize(THUMB_WIDTH, max(1, round(THUMB_WIDTH * h / max(w, 1)))))

    def select_page(self, page: int) -> None:
        """Highlight ``page`` and scroll to it without emitting ``page_chosen``."""
        index = self.thumbs.index(page - 1)
        if index.isValid():
            self.setCurrentIndex(index)
            self.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def visible_pages(self) -> tuple[int, int]:
        """First and last page (1-based) at least partly on screen."""
        top = self.indexAt(self.viewport().rect().topLeft() + self._inset())
        bottom = self.indexAt(self.viewport().rect().bottomLeft() + self._inset())
        first = top.row() + 1 if top.isValid() else 1
        last = bottom.row() + 1 if bottom.isValid() else self.thumbs.rowCount()
        return first, last

    def _inset(self) -> QPoint:
        return QPoint(self.viewport().width() // 2, 0)

    def _prune_hidden(self) -> None:
        first, last = self.visible_pages()
        self.thumbs.keep_only(first - 2, last + 2)
