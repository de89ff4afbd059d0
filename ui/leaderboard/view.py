"""Leaderboard: the card's results table with CIs, grounded vs recited, item flags.

After the card's columns come ``paired`` (how many items grounded and recited
compare told with no-image on) and ``markers`` (the card's marker accuracy
under ``told``, over items with markers; every condition in its tooltip).

The numbers come from the core (:mod:`ui.leaderboard.compute`), computed on a
worker thread whenever answers or the lexicon change while the view is shown
(or when it is next shown), so a long bootstrap never freezes the window.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QStyledItemDelegate,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from labeler.text.counted import counted
from ui import workers
from ui.errors import show_error
from ui.leaderboard.chart import GroundingChart
from ui.leaderboard.compute import METRICS, ItemFlag, Leaderboard, ModelRow, compute
from ui.leaderboard.flags import FLAG_FILTERS, FlagsModel
from ui.leaderboard.slots_table import SlotTable
from ui.session import Session
from ui.when_shown import ReloadWhenShown

CiRole = Qt.ItemDataRole.UserRole + 30
EXTRA_COLUMNS = ("paired", "markers")
MARKER_CONDITION = "told"  # the card's headline condition


def format_metric(metric: str, value: float) -> str:
    """The card's notation: F1 as ``55.8%``, grounded as ``+17.7`` pts, recited as ``71%``."""
    if math.isnan(value):
        return "—"
    if metric == "grounded":
        return f"{value:+.1f}"
    if metric == "recited":
        return f"{value:.0f}%"
    return f"{value:.1f}%"


#: Width of a number column in the results table ("0.0 – 10.0" under "no-image").
METRIC_WIDTH = 70


class CiDelegate(QStyledItemDelegate):
    """The value, with its 95% CI in small muted text underneath."""

    @staticmethod
    def height(widget: QWidget) -> int:
        """A cell's height in ``widget``'s font: the value and its CI, one line each."""
        return widget.fontMetrics().height() * 2 + 8

    def sizeHint(self, option, index) -> QSize:
        width = option.fontMetrics.horizontalAdvance(str(index.data() or "")) + 16
        return QSize(max(90, width), option.fontMetrics.height() * 2 + 8)

    def paint(self, painter, option, index) -> None:
        ci = index.data(CiRole)
        if not ci:
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        painter.save()
        if option.state & option.state.State_Selected:
            painter.fillRect(option.rect, option.palette.color(QPalette.ColorRole.Highlight))
        rect = option.rect.adjusted(4, 3, -6, -3)
        painter.setPen(option.palette.color(QPalette.ColorRole.Text))
        align = Qt.AlignmentFlag.AlignRight
        painter.drawText(rect, align | Qt.AlignmentFlag.AlignTop, index.data())
        small = QFont(option.font)
        small.setPointSizeF(option.font.pointSizeF() * 0.82)
        painter.setFont(small)
        painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
        painter.drawText(rect, align | Qt.AlignmentFlag.AlignBottom, ci)
        painter.restore()


class LeaderboardView(QWidget):
    """The Leaderboard screen."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.job = workers.LatestJob(self)  # one computation at a time; the newest wins
        self.job.result.connect(self._ready)
        self.job.partial.connect(self._ready)  # the table first, its CIs after
        self.job.error.connect(self._failed)
        self.board: Leaderboard | None = None
        self._flags_due = 0  # boards whose item flags wait for their turn (:meth:`_ready`)
        self.when_shown = ReloadWhenShown(self, self.refresh)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 1 + len(METRICS) + len(EXTRA_COLUMNS))
        self.table.setHorizontalHeaderLabels(["Model", *METRICS, *EXTRA_COLUMNS])
        self.table.horizontalHeaderItem(5).setToolTip("told − no-image, percentage points")
        self.table.horizontalHeaderItem(6).setToolTip("no-image ÷ told, % of the score")
        self.table.horizontalHeaderItem(7).setToolTip(
            "items answered under both told and no-image: grounded and recited compare these"
        )
        self.table.horizontalHeaderItem(8).setToolTip(
            "marker accuracy under told: % of the key's marker letters given the right name, "
            "over items with markers"
        )
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setItemDelegate(CiDelegate(self.table))
        # every cell is the delegate's two lines high: set once, not measured per fill
        # (``resizeRowsToContents`` asked all 162 cells, 30 ms of a run's end)
        self.table.verticalHeader().setDefaultSectionSize(CiDelegate.height(self.table))
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        # the model's name whole (one row per model: measuring is cheap); the numbers fixed
        # and narrow, the last column taking what is left; a narrow window scrolls sideways
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for column in range(1, 1 + len(METRICS) + len(EXTRA_COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(column, METRIC_WIDTH)
        header.setStretchLastSection(True)
        self.chart = GroundingChart()

        self.flag_filter = QComboBox()
        for key, label in FLAG_FILTERS.items():
            self.flag_filter.addItem(label, key)
        self.flag_counts = QLabel()
        self.flags_model = FlagsModel(self)
        self.flags = QTableView()
        self.flags.setModel(self.flags_model)
        self.flags.verticalHeader().hide()
        self.flags.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.flags.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.flags.setShowGrid(False)
        self.flags.setAlternatingRowColors(True)
        self.flags.setSortingEnabled(True)
        self.flags.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.flags.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.flags.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        fheader = self.flags.horizontalHeader()
        fheader.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column in (0, 2, 3, 4):  # fixed: measuring contents would read every row
            fheader.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            fheader.resizeSection(column, 120 if column in (0, 4) else 72)

        self.slots = SlotTable()
        self.slots_box = QGroupBox("Numbered slots (outside the card's four): slot accuracy %")
        QVBoxLayout(self.slots_box).addWidget(self.slots)
        self.slots_box.hide()
        table_box = QGroupBox("Results: mean name-set F1, 95% bootstrap CI over items")
        QVBoxLayout(table_box).addWidget(self.table)
        chart_box = QGroupBox("Grounded vs recited")
        QVBoxLayout(chart_box).addWidget(self.chart)
        top = QSplitter(Qt.Orientation.Horizontal)
        tables = QWidget()  # the card's table, and the slot table under it when there is one
        tables_layout = QVBoxLayout(tables)
        tables_layout.setContentsMargins(0, 0, 0, 0)
        tables_layout.addWidget(table_box, 3)
        tables_layout.addWidget(self.slots_box, 2)
        top.addWidget(tables)
        top.addWidget(chart_box)
        top.setSizes([900, 340])
        flags_box = QGroupBox("Item flags")
        flags_layout = QVBoxLayout(flags_box)
        row = QHBoxLayout()
        row.addWidget(self.flag_filter)
        row.addWidget(self.flag_counts, 1)
        flags_layout.addLayout(row)
        flags_layout.addWidget(self.flags)
        self.body = body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(top)
        body.addWidget(flags_box)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(body, 1)

        self.flag_filter.currentIndexChanged.connect(lambda _: self._fill_flags())
        for signal in (
            session.project_opened,
            session.items_changed,
            session.item_changed,
            session.responses_changed,
            session.lexicon_changed,
        ):
            signal.connect(self.when_shown.invalidate)
        session.project_closed.connect(self._closed)
        if session.project is not None:
            self.when_shown.invalidate()

    def _closed(self) -> None:
        """The project closed: its numbers must not show under the next one's name."""
        self.job.drop()
        self.board = None

    def refresh(self) -> None:
        """Recompute on a worker thread; the old numbers stay until the new ones arrive."""
        self.when_shown.stale = False
        project = self.session.project
        if project is None:
            return
        first = self.board is None  # then show the table before its CIs are computed
        if first:
            self.summary.setText("Computing the leaderboard…")
        self.job.request(compute, project.folder, publishes=first)

    @property
    def computing(self) -> bool:
        """Whether newer numbers are being computed (or their item flags are still to fill)."""
        return self.job.busy or self._flags_due > 0

    def _failed(self, exc: BaseException) -> None:
        self.summary.setText("The leaderboard could not be computed.")
        show_error(exc, self, "Leaderboard")

    def _ready(self, board: Leaderboard) -> None:
        self.board = board
        if not board.rows:
            self.summary.setText("No answers yet: run some models from the Run view.")
        else:
            skipped = f" · {board.n_unanswered} API errors left out" if board.n_unanswered else ""
            if board.n_stale:
                skipped += f" · {board.n_stale} stale answers left out (re-run them)"
            self.summary.setText(
                f"<b>{counted(len(board.rows), 'model')}</b> · "
                f"{counted(len(board.items), 'item')} · "
                f"{board.n_answers:,} counted answers{skipped}. "
                "grounded = told − no-image (points); recited = no-image ÷ told (%)."
                + ("" if board.intervals else " Computing the confidence intervals…")
            )
        self._fill_table(board.rows)
        self.slots_box.setVisible(board.slots is not None)
        if board.slots is not None:
            self.slots.fill(board.slots)
        self.chart.set_rows(board.rows)
        self._fit_top()
        # the item flags (thousands of rows) are filled and painted in a turn of their own
        self._flags_due += 1
        workers.next_turn(self._flags_turn, self)

    def _flags_turn(self) -> None:
        self._flags_due -= 1
        if not self._flags_due:  # a newer board's turn is queued: it fills them
            self._fill_flags()

    def _fit_top(self) -> None:
        """Give the results table and chart the height they need, the flags the rest."""
        table = self.table
        rows = sum(table.rowHeight(r) for r in range(table.rowCount()))
        # each table's header, rows and frame, and room for its sideways scroll bar (a
        # narrow window scrolls the numbers rather than squeezing the model's name)
        bar = table.horizontalScrollBar().sizeHint().height()
        needed = table.horizontalHeader().height() + rows + 2 * table.frameWidth() + bar
        if self.slots_box.isVisible():  # the slot table's header, rows and title
            slot_rows = sum(self.slots.rowHeight(r) for r in range(self.slots.rowCount()))
            needed += 48 + slot_rows + bar
        chart = self.chart.heightForWidth(self.chart.width() or self.chart.sizeHint().width())
        needed = max(needed, chart) + 48  # group box title, margins
        total = sum(self.body.sizes())
        if total > 0:
            top = min(max(needed, 160), total * 2 // 3)
            self.body.setSizes([top, total - top])

    def _fill_table(self, rows: list[ModelRow]) -> None:
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            self._cell(r, 0, row.model, row.model, numeric=False)
            for c, metric in enumerate(METRICS, start=1):
                value, ci, tip = row.values[metric], None, ""
                if metric in row.cis and not math.isnan(value):
                    lo, hi = row.cis[metric]
                    ci, tip = f"{lo:.1f} – {hi:.1f}", f"95% CI {lo:.1f} to {hi:.1f}"
                self._cell(r, c, format_metric(metric, value), tip, ci)
            self._fill_extras(r, row)

    def _fill_extras(self, r: int, row: ModelRow) -> None:
        """The paired-item count and marker accuracy of one model's line."""
        first = 1 + len(METRICS)
        paired = f"grounded and recited are taken over these {row.paired} items"
        self._cell(r, first, str(row.paired), paired)
        markers = row.markers or {}
        told = markers.get(MARKER_CONDITION, math.nan)
        tip = "\n".join(f"{c}: {format_metric(c, v)}" for c, v in markers.items())
        marker = format_metric(MARKER_CONDITION, told)
        self._cell(r, first + 1, marker, tip or "no item with markers")

    def _cell(
        self, r: int, c: int, text: str, tip: str, ci: str | None = None, numeric: bool = True
    ) -> None:
        """Set one cell of the results table, reusing its item: Qt announces (and
        repaints) only the values that changed, so a refresh that moves no number
        repaints nothing (:mod:`ui.row_refresh`)."""
        item = self.table.item(r, c)
        if item is None:
            item = QTableWidgetItem()
            if numeric:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, c, item)
        item.setText(text)
        item.setToolTip(tip)
        item.setData(CiRole, ci)

    def _fill_flags(self) -> None:
        board = self.board
        items: list[ItemFlag] = board.items if board else []
        self.flags_model.show(items, self.flag_filter.currentData())
        recitable = sum(i.recitable for i in items)
        unsolved = sum(i.unsolved_core for i in items)
        self.flag_counts.setText(
            f"{recitable} of {len(items)} recitable · {unsolved} unsolved" if items else ""
        )
