"""The project's items (filterable, searchable) and its source documents.

The item list is a read-only view of ``project.items.list`` with the filters
the store understands (status, tier, pattern, text search) plus a score filter
on each item's mean F1 over its latest model answers; it reloads whenever the
session says items changed. Scoring grows with the project, so the rows are
read on a worker (:func:`ui.curate.scores.item_rows`) through a
:class:`ui.workers.LatestJob`: a burst of searches or edits costs one reload,
and the list keeps its rows (and says "loading…") until the new ones arrive.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from labeler.store.records import PATTERNS, STATUSES, TIERS, Item
from ui import workers
from ui.curate.items_table import ItemsTable
from ui.curate.scores import SCORE_FILTERS, ItemRows, item_rows
from ui.curate.wrapped_rows import VisibleRowFit
from ui.errors import show_error
from ui.row_refresh import refresh_rows, same
from ui.session import Session

COLUMNS = ("Subject", "Status", "Labels", "F1")
STATUS_COLOURS = {"draft": "#b08800", "ready": "#2f9e44", "excluded": "#868e96"}


#: The roles :meth:`ItemsModel.data` answers; a view asks each painted cell for more.
_ROLES = frozenset(
    int(role.value)
    for role in (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ToolTipRole,
    )
)


class ItemsModel(QAbstractTableModel):
    """Rows of items with their label counts and scores."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.items: list[Item] = []
        self.counts: dict[str, int] = {}
        self.scores: dict[str, float] = {}

        self._rows: dict[str, int] = {}

    def load(self, items: list[Item], counts: dict[str, int], scores: dict[str, float]) -> None:
        """Show these rows: the same items in the same order repaint only the rows that
        changed (:mod:`ui.row_refresh`), other rows reset the list."""

        def changed(row: int) -> bool:
            old, new = self.items[row], items[row]
            return (
                old != new
                or self.counts.get(new.id) != counts.get(new.id)
                or not same(self.scores.get(new.id), scores.get(new.id))
            )

        def take() -> None:
            self.items, self.counts, self.scores = items, counts, scores
            self._rows = {item.id: row for row, item in enumerate(items)}

        refresh_rows(self, [i.id for i in self.items], [i.id for i in items], changed, take)

    def row_of(self, item_id: str) -> int:
        """The row showing ``item_id``, or -1."""
        return self._rows.get(item_id, -1)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if role not in _ROLES or not index.isValid():  # a painted cell asks ~7 roles
            return None
        item = self.items[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "Subject":
                return item.subject or f"(no subject) · p.{item.page or '–'}"
            if column == "Status":
                return item.status
            if column == "Labels":
                return str(self.counts.get(item.id, 0))
            score = self.scores.get(item.id)
            return "—" if score is None else f"{score:.2f}"
        if role == Qt.ItemDataRole.ForegroundRole and column == "Status":
            return QColor(STATUS_COLOURS[item.status])
        if role == Qt.ItemDataRole.TextAlignmentRole and column != "Subject":
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (  # the subject, then what the columns do not show
                f"{item.subject or '(no subject)'}\n{item.id} · tier {item.tier} · "
                f"pattern {item.pattern} · page {item.page or '–'}"
            )
        return None


class ItemsPanel(QWidget):
    """Tabs "Items" and "Sources"; emits what the curator picked."""

    item_chosen = Signal(str)
    source_chosen = Signal(int)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search subject, notes, id…")
        self.search.setClearButtonEnabled(True)
        self.filters: dict[str, QComboBox] = {}
        for name, values in (("status", STATUSES), ("tier", TIERS), ("pattern", PATTERNS)):
            combo = QComboBox(self)
            combo.addItem(f"Any {name}", None)
            for value in values:
                combo.addItem(value, value)
            combo.currentIndexChanged.connect(self.reload)
            self.filters[name] = combo
        self.score_filter = QComboBox(self)
        for text in SCORE_FILTERS:
            self.score_filter.addItem(text)
        self.score_filter.currentIndexChanged.connect(self.reload)
        self._debounce = QTimer(self, singleShot=True, interval=200)
        self.job = workers.LatestJob(self)
        self.job.result.connect(self._loaded)
        self.job.error.connect(self._failed)
        self._wanted: tuple[str, bool] | None = None  # asked to select before its row arrived
        self._select_first = False  # a project was opened: select its first item once loaded
        self._debounce.timeout.connect(self.reload)
        self.search.textChanged.connect(lambda _: self._debounce.start())

        self.model = ItemsModel(self)
        self.table = ItemsTable(wrapped=0)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(26)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Fixed widths that fit the widest value: measuring the contents reads every row.
        metrics = self.table.fontMetrics()
        for column, widest in enumerate(("excluded", "Labels", "0.00"), start=1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, metrics.horizontalAdvance(widest) + 18)
        self.table.selectionModel().currentRowChanged.connect(self._item_row)
        self.row_fit = VisibleRowFit(self.table, 0)  # long subjects wrap whole, not elided

        self.sources = QTableWidget(0, 3, self)
        self.sources.setHorizontalHeaderLabels(["Document", "Pages", "Kind"])
        self.sources.verticalHeader().hide()
        self.sources.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.sources.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.sources.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.sources.setAlternatingRowColors(True)
        s_header = self.sources.horizontalHeader()
        s_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        s_header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        s_header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.sources.itemSelectionChanged.connect(self._source_row)

        items_tab = QWidget(self)
        grid = QGridLayout(items_tab)
        grid.setContentsMargins(6, 6, 6, 6)
        grid.setSpacing(6)
        grid.addWidget(self.search, 0, 0, 1, 2)
        grid.addWidget(self.filters["status"], 1, 0)
        grid.addWidget(self.filters["tier"], 1, 1)
        grid.addWidget(self.filters["pattern"], 2, 0)
        grid.addWidget(self.score_filter, 2, 1)
        grid.addWidget(self.table, 3, 0, 1, 2)
        sources_tab = QWidget(self)
        s_layout = QVBoxLayout(sources_tab)
        s_layout.setContentsMargins(6, 6, 6, 6)
        s_layout.addWidget(self.sources)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(items_tab, "Items")
        self.tabs.addTab(sources_tab, "Sources")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)

        session.project_opened.connect(self._project_opened)
        session.project_opened.connect(self.reload_sources)
        session.project_closed.connect(self._project_closed)
        session.items_changed.connect(self.reload)
        session.responses_changed.connect(self.reload)
        session.lexicon_changed.connect(self.reload)

    def reload(self) -> None:
        """Re-read the items with the current filters on a worker, keeping the selection."""
        project = self.session.project
        if project is None:
            self.job.drop()
            self.model.load([], {}, {})
            return
        filters = {name: combo.currentData() for name, combo in self.filters.items()}
        if not self.model.items:  # rows shown stay, counted, until the new ones replace them
            self._tab_text(0, "Items (loading…)")
        self.job.request(
            item_rows,
            project.folder,
            self.search.text().strip(),
            filters,
            self.score_filter.currentText(),
        )

    @property
    def loading(self) -> bool:
        """Whether new rows are being read."""
        return self.job.busy

    def _project_opened(self) -> None:
        self.model.load([], {}, {})  # never show one project's rows under another's name
        self._wanted, self._select_first = None, True
        self.reload()

    def _project_closed(self) -> None:
        self.job.drop()
        self.model.load([], {}, {})

    def _loaded(self, rows: ItemRows) -> None:
        current = self.current_item_id()
        self.model.load(rows.items, rows.counts, rows.scores)
        self._tab_text(0, f"Items ({len(rows.items)})")
        wanted, self._wanted = self._wanted, None
        first, self._select_first = self._select_first, False
        if wanted is not None:
            self.select_item(*wanted)
        elif current is not None:
            self.select_item(current, emit=False)
        elif first and rows.items:  # showing it is a turn of its own, after the rows' paint
            first_id = rows.items[0].id
            workers.next_turn(lambda: self._select_first_item(first_id), self)

    def _select_first_item(self, item_id: str) -> None:
        """Select the first item of a project just opened, unless the curator chose one."""
        if self.current_item_id() is None and self.model.row_of(item_id) >= 0:
            self.select_item(item_id)

    def _tab_text(self, index: int, text: str) -> None:
        """Name a tab; the same name again changes nothing (Qt would lay out and repaint the
        whole panel: the largest piece of the list's work at the end of a run)."""
        if self.tabs.tabText(index) != text:
            self.tabs.setTabText(index, text)

    def _failed(self, exc: BaseException) -> None:
        self._tab_text(0, "Items (not loaded)")
        show_error(exc, self, "Items")

    def reload_sources(self) -> None:
        """Re-read the source documents."""
        project = self.session.project
        sources = project.sources.all() if project is not None else []
        self.sources.blockSignals(True)
        self.sources.setRowCount(len(sources))
        for row, source in enumerate(sources):
            name = QTableWidgetItem(source.title or Path(source.path).name)
            name.setData(Qt.ItemDataRole.UserRole, source.id)
            name.setToolTip(source.path)
            pages = QTableWidgetItem(str(source.page_count))
            pages.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            self.sources.setItem(row, 0, name)
            self.sources.setItem(row, 1, pages)
            self.sources.setItem(row, 2, QTableWidgetItem(source.kind))
        self.sources.blockSignals(False)
        self._tab_text(1, f"Sources ({len(sources)})")

    def current_item_id(self) -> str | None:
        """The selected item's id."""
        row = self.table.currentIndex().row()
        return self.model.items[row].id if 0 <= row < len(self.model.items) else None

    def select_item(self, item_id: str, emit: bool = True) -> None:
        """Select ``item_id`` in the list (if the filters show it).

        While rows are loading, an item not listed yet (one just added) is
        selected when they arrive.
        """
        row = self.model.row_of(item_id)
        if row < 0:
            if self.loading:
                self._wanted = (item_id, emit)
            return
        self._wanted = None
        self.table.blockSignals(not emit)
        self.table.selectionModel().blockSignals(not emit)
        self.table.selectRow(row)
        self.table.selectionModel().blockSignals(False)
        self.table.blockSignals(False)
        self.table.scrollTo(self.model.index(row, 0))

    def clear_item(self) -> None:
        """Select no item (so clicking the previous one selects it again)."""
        self.table.setCurrentIndex(QModelIndex())
        self.table.clearSelection()

    def step(self, delta: int) -> None:
        """Select the next (+1) or previous (-1) item in the list."""
        rows = self.model.rowCount()
        if rows:
            row = min(rows - 1, max(0, self.table.currentIndex().row() + delta))
            self.table.selectRow(row)

    def select_source(self, source_id: int) -> None:
        """Highlight ``source_id`` in the sources list without emitting."""
        for row in range(self.sources.rowCount()):
            if self.sources.item(row, 0).data(Qt.ItemDataRole.UserRole) == source_id:
                self.sources.blockSignals(True)
                self.sources.selectRow(row)
                self.sources.blockSignals(False)

    def _item_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.item_chosen.emit(self.model.items[current.row()].id)

    def _source_row(self) -> None:
        rows = self.sources.selectionModel().selectedRows()
        if rows:
            self.source_chosen.emit(
                self.sources.item(rows[0].row(), 0).data(Qt.ItemDataRole.UserRole)
            )
