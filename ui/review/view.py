"""Review: every answer to every item, scored and explained, one keystroke apart.

Left: the figure (erased / original) and its key. Right, top: the matrix of
items × (model, condition) F1 scores; below it, the selected item's answers
name by name, and the raw answer of the selected cell. Clicking a predicted
name offers to record it as the same as, or distinct from, a key name; the
lexicon row is written through the store, undoable, and every score updates.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from labeler.errors import LabelerError
from labeler.prompts import ALL_CONDITIONS
from labeler.review import effective_overrides
from ui import workers
from ui.errors import show_error
from ui.lexicon.commands import promote
from ui.review.agreement import AgreementPanel
from ui.review.answers import AnswersModel, AnswersView, Entry, row_heights
from ui.review.cells import (
    FILTERS,
    Column,
    ItemAnswers,
    ReviewData,
    ReviewSnapshot,
    load_item_answers,
    load_review,
)
from ui.review.decisions import DecisionPanel
from ui.review.details import response_html
from ui.review.figure import FigurePanel
from ui.review.matrix import GroupedHeader, MatrixModel, MatrixView
from ui.review.slots_overlay import SlotOverlay
from ui.session import Session
from ui.shortcuts import ShortcutRegistry
from ui.when_shown import ReloadWhenShown

CELL_WIDTH = 52
ANSWER_WIDTH = 176


class ReviewView(QWidget):
    """The review screen; refreshes itself from the session's signals."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.data: ReviewData | None = None
        self.when_shown = ReloadWhenShown(self, self.reload)
        self.active_menu: QMenu | None = None
        self.job = workers.LatestJob(self)  # reads and scores the project on a worker
        self.job.result.connect(self._loaded)
        self.job.error.connect(self._load_failed)
        self.item_job = workers.LatestJob(self)  # the open item's answers and scores
        self.item_job.result.connect(self._item_read)
        self.item_job.error.connect(self._load_failed)
        self._selecting = 0  # new data shown, its item's panels not yet (their own turn)
        self._shown = 0  # counts matrix fills: a selection queued for an older one is dropped

        self.filter = QComboBox()
        for name, label in FILTERS.items():
            self.filter.addItem(label, name)
        self.condition = QComboBox()
        self.condition.addItem("All conditions", "")
        for condition in ALL_CONDITIONS:  # the card's four, then the slot conditions
            self.condition.addItem(condition, condition)
        self.position = QLabel()
        self.prev_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        self.prev_button.setToolTip("Previous item (K or Page Up)")
        self.next_button.setToolTip("Next item (J or Page Down)")

        self.matrix_model = MatrixModel(self)
        self.matrix = MatrixView()
        self.matrix.setModel(self.matrix_model)
        self.matrix.setHorizontalHeader(GroupedHeader(self.matrix))
        self.matrix.setShowGrid(False)
        self.matrix.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.matrix.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self._fixed_sizes(self.matrix, CELL_WIDTH)
        self.matrix.verticalHeader().setFixedWidth(200)

        self.answers_model = AnswersModel(self)
        self.answers = AnswersView()
        self.answers.setModel(self.answers_model)
        self.answers.setHorizontalHeader(GroupedHeader(self.answers))
        self.answers.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.answers.verticalHeader().hide()
        self.answers.setShowGrid(False)
        self.answers.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.answers.verticalHeader().setDefaultSectionSize(
            row_heights(self.answers.fontMetrics())[1]
        )
        self.answers.horizontalHeader().setDefaultSectionSize(ANSWER_WIDTH)
        self.answers.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)

        self.details = QTextBrowser()
        self.details.setPlaceholderText("Select a cell to see the raw answer, usage and cost.")
        self.decisions = DecisionPanel(session)
        self.slots = SlotOverlay()
        self.slots.hide()
        answer = QSplitter(Qt.Orientation.Vertical)  # the raw answer; a slot answer drawn below
        answer.addWidget(self.details)
        answer.addWidget(self.slots)
        self.side = QTabWidget()
        self.side.addTab(answer, "Answer")
        self.side.addTab(self.decisions, "Decisions")
        self.agreement = AgreementPanel(session)
        self.side.addTab(self.agreement, "Agreement")
        self.figure = FigurePanel()
        self.empty = QLabel("No responses yet: run some models from the Run view.")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        bar = QHBoxLayout()
        bar.addWidget(QLabel("Show"))
        bar.addWidget(self.filter)
        bar.addWidget(QLabel("Answers for"))
        bar.addWidget(self.condition)
        bar.addStretch(1)
        bar.addWidget(self.position)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.next_button)

        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(self.answers)
        lower.addWidget(self.side)
        lower.setStretchFactor(0, 3)
        lower.setStretchFactor(1, 2)
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.matrix)
        right.addWidget(lower)
        right.setStretchFactor(0, 2)
        right.setStretchFactor(1, 3)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(self.figure)
        main.addWidget(right)
        main.setStretchFactor(0, 1)
        main.setStretchFactor(1, 3)
        main.setSizes([330, 950])
        lower.setSizes([560, 390])
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(main, 1)
        layout.addWidget(self.empty)

        self.filter.currentIndexChanged.connect(lambda _: self._apply_filter())
        self.condition.currentIndexChanged.connect(lambda _: self._show_answers())
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.matrix.selectionModel().currentChanged.connect(self._matrix_current)
        self.answers.clicked.connect(self._answer_clicked)
        self.agreement.item_chosen.connect(self._open_item)
        self.actions: dict[str, tuple[QAction, str]] = {}
        for action_id, text, key, slot in (
            ("review.next_item", "Next item", "J", lambda: self.step(1)),
            ("review.next_item_page", "Next item (page key)", "PgDown", lambda: self.step(1)),
            ("review.previous_item", "Previous item", "K", lambda: self.step(-1)),
            (
                "review.previous_item_page",
                "Previous item (page key)",
                "PgUp",
                lambda: self.step(-1),
            ),
            ("review.toggle_original", "Erased / original figure", "E", self.figure.toggle),
        ):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(key))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
            self.actions[action_id] = (action, key)

        for signal in (
            session.project_opened,
            session.items_changed,
            session.item_changed,
            session.responses_changed,
        ):
            signal.connect(self.when_shown.invalidate)
        session.lexicon_changed.connect(self._rescore)
        session.project_closed.connect(self._closed)
        if session.project is not None:
            self.reload()

    def register_shortcuts(self, registry: ShortcutRegistry) -> None:
        """Let the curator rebind this view's keys (called by the main window)."""
        for action_id, (action, key) in self.actions.items():
            registry.register(action_id, action, key)

    # -- loading ------------------------------------------------------------

    @staticmethod
    def _fixed_sizes(table: QTableView, width: int) -> None:
        header = table.horizontalHeader()
        header.setDefaultSectionSize(width)
        header.setMinimumSectionSize(24)
        rows = table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(table.fontMetrics().height() + 8)

    def reload(self) -> None:
        """Re-read and re-score the project on a worker; the matrix keeps its cells meanwhile."""
        self.when_shown.stale = False
        project = self.session.project
        if project is None:
            self._closed()
            return
        if self.data is None:
            self.empty.setText("Loading answers…")
            self.empty.show()
        self.job.request(load_review, project.folder)

    @property
    def loading(self) -> bool:
        """Whether newer answers or scores are being read, or not yet all shown."""
        return self.job.busy or self.item_job.busy or self._selecting > 0

    def _loaded(self, snapshot: ReviewSnapshot) -> None:
        project = self.session.project
        if project is None:
            return
        current = self.current_item_id()
        self.data = ReviewData(project, snapshot, previous=self.data)
        self.empty.setText("No responses yet: run some models from the Run view.")
        self.empty.setVisible(not self.data.columns)
        self._apply_filter(current, later=True)

    def _load_failed(self, exc: BaseException) -> None:
        self.empty.setText("The answers could not be read.")
        show_error(exc, self, "Review")

    def _closed(self) -> None:
        self.job.drop()
        self.item_job.drop()
        self.data = None
        self._apply_filter()

    def _rescore(self) -> None:
        """The lexicon changed: the open item's names now, every cell's score on a worker.

        The cells are re-read even when no snapshot has arrived yet: the read in flight may
        have taken the lexicon as it was before this edit.
        """
        if self.data is not None:
            self.data.reload_lexicon()
            self._read_item(self.current_item_id())
        self.when_shown.invalidate()

    def _apply_filter(self, keep_item: str | None = None, later: bool = False) -> None:
        """Show the items passing the chosen filter (flagged when the project was scored).

        With ``later`` (new data from a worker), the kept item's figure, answers and
        details are shown in the next event-loop turn: the matrix and they together
        were the longest stretch of GUI work at the end of a run.
        """
        keep_item = keep_item or self.current_item_id()
        name = self.filter.currentData()
        self._show_items(self.data.filtered(name) if self.data else [], keep_item, later)

    def _show_items(self, ids: list[str], keep_item: str | None, later: bool = False) -> None:
        current = self.matrix.currentIndex()
        column = current.column() if current.isValid() else 0  # a reset forgets it
        previous = self.matrix_model.data_source
        if not self.matrix_model.reset(self.data, ids) and self._kept(previous, keep_item):
            return  # the same rows, and the open item as it was: its panels stand
        self.answers_model.item_id = None  # the data changed: re-show even the same item
        row = ids.index(keep_item) if keep_item in ids else 0
        self._shown += 1
        if later:
            self._selecting += 1
            shown = self._shown
            workers.next_turn(lambda: self._select_later(shown, row, column), self)
        else:
            self._select_shown(row, column)

    def _kept(self, previous: ReviewData | None, item_id: str | None) -> bool:
        """Whether the open item is ``item_id`` and the new data left its row as it was."""
        return (
            previous is not None
            and self.data is not None
            and item_id is not None
            and item_id == self.current_item_id()
            and not self.data.changed(previous, item_id)
        )

    def _select_later(self, shown: int, row: int, column: int) -> None:
        self._selecting -= 1
        if shown == self._shown:  # else the matrix was filled again and selected meanwhile
            self._select_shown(row, column)

    def _select_shown(self, row: int, column: int) -> None:
        """Select (row, column) of the matrix just filled, and show that cell's item."""
        self.select_row(row, column)
        current = self.matrix.currentIndex()
        if current.isValid() and self.current_item_id() is not None:  # the same cell, new data
            self._show_details(self.matrix_model.columns[current.column()])

    # -- navigation ---------------------------------------------------------

    def current_item_id(self) -> str | None:
        """The item whose answers are shown."""
        return self.answers_model.item_id

    def select_row(self, row: int, column: int | None = None) -> None:
        """Make matrix row ``row`` current (keeping the column when not given)."""
        ids = self.matrix_model.item_ids
        if not ids:
            self._show_item(None)
            return
        row = max(0, min(row, len(ids) - 1))
        if column is None:
            current = self.matrix.currentIndex()
            column = current.column() if current.isValid() else 0
        index = self.matrix_model.index(row, max(0, column))
        if index.isValid():
            self.matrix.setCurrentIndex(index)
            self.matrix.scrollTo(index)
        if self.current_item_id() != ids[row]:
            self._show_item(ids[row])

    def _open_item(self, item_id: str) -> None:
        """Show ``item_id`` (from the Agreement table), clearing a filter that hides it."""
        if item_id not in self.matrix_model.item_ids:
            self.filter.setCurrentIndex(0)  # "all"
        if item_id in self.matrix_model.item_ids:
            self.select_row(self.matrix_model.item_ids.index(item_id))

    def step(self, delta: int) -> None:
        """Go to the next (+1) or previous (−1) item."""
        current = self.matrix.currentIndex()
        self.select_row((current.row() if current.isValid() else 0) + delta)

    def _matrix_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        if not current.isValid():
            return
        item_id = self.matrix_model.item_ids[current.row()]
        if item_id != self.current_item_id():
            self._show_item(item_id)
        column = self.matrix_model.columns[current.column()]
        self._show_details(column)
        if column in self.answers_model.columns:
            index = self.answers_model.index(0, self.answers_model.columns.index(column))
            self.answers.setCurrentIndex(index)
            self.answers.scrollTo(index)

    def _show_item(self, item_id: str | None) -> None:
        project, data = self.session.project, self.data
        ids = self.matrix_model.item_ids
        if item_id is None or data is None or project is None:
            self.figure.show_item(None, None, [])
            self.answers_model.show(None, None, [])
            self.position.setText("")
            self.details.clear()
            self.decisions.show_item(None)
            return
        item = data.item(item_id)
        self.figure.show_item(project, item, project.items.key(item_id))
        self.position.setText(f"Item {ids.index(item_id) + 1} of {len(ids)}")
        self.answers_model.item_id = item_id
        self.decisions.show_item(item_id)
        self._read_item(item_id)

    def _read_item(self, item_id: str | None) -> None:
        """Show ``item_id``'s answers: now if they were read, else once a worker has read
        and scored them (the panel is empty meanwhile, for a moment)."""
        project, data = self.session.project, self.data
        if item_id is None or data is None or project is None:
            return
        if data.prepared(item_id):
            self.item_job.drop()
            self._show_answers()
            return
        self.answers_model.show(data, item_id, [])
        self.details.clear()
        self.item_job.request(
            load_item_answers, project.folder, item_id, data.keys.get(item_id, ()),
            data.markers.get(item_id),
        )  # fmt: skip

    def _item_read(self, answers: ItemAnswers) -> None:
        """Show an item's answers as they arrive; the current cell's details (its answer's
        text, history and decisions) take the next turn: together, and with the answers'
        paint, they were the longest stretch of GUI work at the end of a run."""
        if self.data is None or answers.item_id != self.current_item_id():
            return  # another item was opened meanwhile, or the project closed
        self.data.adopt(answers)
        self._show_answers()
        self._selecting += 1
        workers.next_turn(lambda: self._current_cell_later(answers.item_id), self)

    def _current_cell_later(self, item_id: str) -> None:
        self._selecting -= 1
        current = self.matrix.currentIndex()
        if current.isValid() and item_id == self.current_item_id():  # else it moved on
            self._matrix_current(current, current)

    def _answer_columns(self) -> list[Column]:
        condition = self.condition.currentData()
        columns = self.data.columns if self.data else []
        return [c for c in columns if not condition or c.condition == condition]

    def _show_answers(self) -> None:
        self.answers_model.show(self.data, self.answers_model.item_id, self._answer_columns())
        if self.answers_model.rowCount():  # the summaries' row; the names' rows hold one line
            self.answers.setRowHeight(0, row_heights(self.answers.fontMetrics())[0])

    def _show_details(self, column: Column) -> None:
        item_id, project = self.current_item_id(), self.session.project
        if self.data is None or item_id is None or project is None:
            return
        self.decisions.show_cell(column.model, column.condition)
        if not self.data.prepared(item_id):
            return  # the answer is shown when the item's answers arrive (_item_read)
        history = project.responses.history(item_id, column.model, column.condition)
        earlier = max(0, len(history) - 1)
        response, stale = self.data.response(item_id, column), self.data.stale(item_id, column)
        override = effective_overrides(project, item_id).get(response.id) if response else None
        self.details.setHtml(response_html(column, response, earlier, stale, override))
        self.slots.setVisible(self.slots.show_answer(project, response))

    # -- promoting names ----------------------------------------------------

    def _answer_clicked(self, index: QModelIndex) -> None:
        entry = self.answers_model.entry(index.row(), index.column())
        if entry is None:
            return
        column = self.answers_model.columns[index.column()]
        self._show_details(column)
        if entry.kind in ("matched", "extra"):
            rect = self.answers.visualRect(index)
            self.active_menu = self.name_menu(entry, column)
            self.active_menu.popup(
                self.answers.viewport().mapToGlobal(rect.bottomLeft() + QPoint(0, 2))
            )

    def name_menu(self, entry: Entry, column: Column) -> QMenu:
        """The actions for a predicted name: same as / distinct from a key name."""
        assert self.data is not None and self.current_item_id() is not None
        score = self.data.score(self.current_item_id(), column)
        key = self.data.keys.get(self.current_item_id(), ())
        missed = list(score.missed_key) if score else []
        # Missed key names are the likely intended ones: offer them first.
        candidates = missed + [k for k in key if k not in missed and k != entry.key]
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        if entry.kind == "matched":
            text = f"“{entry.text}” is not “{entry.key}” (mark distinct)"
            self._add_promote(menu, entry.text, entry.key, "distinct", text)
        same = menu.addMenu(f"“{entry.text}” is the same as…")
        for name in candidates:
            self._add_promote(same, entry.text, name, "same")
        if entry.kind == "extra":
            distinct_menu = menu.addMenu(f"“{entry.text}” is distinct from…")
            for name in candidates:
                self._add_promote(distinct_menu, entry.text, name, "distinct")
        same.setEnabled(bool(candidates))
        return menu

    def _add_promote(
        self, menu: QMenu, predicted: str, key_name: str, relation: str, text: str = ""
    ) -> QAction:
        action = menu.addAction(text or key_name)
        action.setData((predicted, key_name, relation))
        action.triggered.connect(lambda: self._promote(predicted, key_name, relation))
        return action

    def _promote(self, predicted: str, key_name: str, relation: str) -> None:
        try:
            promote(self.session, predicted, key_name, relation)
        except LabelerError as exc:
            show_error(exc, self, "Lexicon")
