"""Lexicon: the project's synonym groups and distinct pairs, and what to add next.

Left: every row, by synonym group (the core's :meth:`Lexicon.groups`), searchable,
with add / remove, CSV import / export and the starter biology lexicon, and under it the
lint (:func:`labeler.lexicon_lint.lint_lexicon`: a surface in two groups, a contradiction, a
self-synonym) as a count and a list; it warns, it never blocks an edit. Right: suggestions mined
from the stored answers (the core's :func:`labeler.suggestions.project_suggestions`,
run on a worker thread), each one click from "same" or "distinct". Every edit is an
undoable command that emits ``lexicon_changed``, so open scores update live.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QKeySequence, QPainter, QPalette, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from labeler.errors import LabelerError
from labeler.lexicon import Lexicon
from labeler.lexicon_lint import LintIssue, lint_lexicon
from labeler.lexicon_project import export_csv, plan_import, starter_rows
from labeler.store import Project
from labeler.suggestions import Suggestion, project_suggestions
from ui import workers
from ui.errors import show_error
from ui.lexicon.commands import LexiconEdit, check_addition, promote
from ui.lexicon.models import RowRole, RowsModel, RowsTable, SuggestionsModel, rows_table
from ui.review.style import tone
from ui.session import Session
from ui.when_shown import ReloadWhenShown


@dataclass(frozen=True)
class RowsRead:
    """The rows table for one search, the lexicon's counts and, when its rows changed since
    they were last linted, the lint: everything the left pane shows, read on a worker."""

    table: RowsTable
    counts: str
    rows: tuple[tuple[str, str, str], ...]
    lint: list[LintIssue] | None  # None: the same rows as those last linted


def read_rows(folder: Path, search: str, linted: tuple | None) -> RowsRead:
    """Read ``folder``'s global lexicon for the rows table (a worker thread: own connection).

    Building the lexicon, its groups and its lint grows with the lexicon (≈ 0.5 s of a
    2,000-row one), so none of it runs on the GUI thread.
    """
    with Project.open(folder) as project:
        rows = tuple(project.lexicon.rows())
        extra = sum(len(r) for r in project.lexicon.item_rows().values())
    lexicon = Lexicon.from_rows(rows)
    counts = f"{len(lexicon.groups())} groups · {len(lexicon.distinct_pairs())} distinct pairs"
    return RowsRead(
        table=rows_table(lexicon, search),
        counts=counts + (f" · {extra} item-only rows" if extra else ""),
        rows=rows,
        lint=None if rows == linted else lint_lexicon(lexicon),
    )


def compute_suggestions(folder: Path) -> list[Suggestion]:
    """The core's suggestions for the project at ``folder`` (a worker thread: own connection)."""
    with Project.open(folder) as project:
        return project_suggestions(project)


class ActionDelegate(QStyledItemDelegate):
    """Paints the Same / Distinct columns as small buttons."""

    def paint(self, painter: QPainter, option, index) -> None:
        same = index.column() == SuggestionsModel.SAME
        palette = option.palette
        color = tone(palette, "matched" if same else "extra")
        rect = QRect(option.rect).adjusted(6, 3, -6, -3)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(color)
        painter.setBrush(palette.color(QPalette.ColorRole.Button))
        painter.drawRoundedRect(rect, 4, 4)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, index.data())
        painter.restore()


#: The least width of a name column of the suggestions; below it, the counts make room.
NAME_LEAST = 96
NUMBER_WIDTH, BUTTON_WIDTH = 64, 78  # Similar, Models, Answers; Same, Distinct


class SuggestionsTable(QTableView):
    """The suggestions, whose Same / Distinct buttons are always in view.

    In a narrow pane (a 1024 px window) the Models and Answers counts step aside (the row's
    tooltip has them) before a name is squeezed below :data:`NAME_LEAST` or the buttons are
    scrolled out of sight.
    """

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        """Hide the two counts when showing them would leave a name less than its least."""
        narrow = self.viewport().width() - 3 * NUMBER_WIDTH - 2 * BUTTON_WIDTH < 2 * NAME_LEAST
        for column in (SuggestionsModel.MODELS, SuggestionsModel.ANSWERS):
            self.setColumnHidden(column, narrow)


class LexiconView(QWidget):
    """The Lexicon screen."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.suggestion_worker: workers.Worker | None = None
        self.suggestions_when_shown = ReloadWhenShown(self, self.refresh_suggestions)
        self.rows_job = workers.LatestJob(self)  # the rows, counts and lint; newest wins
        self.rows_job.result.connect(self._rows_read)
        self.rows_job.error.connect(self._rows_failed)
        self.rows_when_shown = ReloadWhenShown(self, self.refresh_rows)
        self._linted_rows: tuple | None = None

        self.search = QLineEdit()
        self.search.setPlaceholderText("Search names…")
        self.search.setClearButtonEnabled(True)
        self.count = QLabel()
        self.lint_count = QLabel()
        self.lint_list = QListWidget()
        self.lint_list.setMaximumHeight(6 * (self.fontMetrics().height() + 6))
        self.lint_list.setWordWrap(True)
        self.rows_model = RowsModel(self)
        self.rows = QTableView()
        self.rows.setModel(self.rows_model)
        self.rows.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.rows.verticalHeader().hide()
        self.rows.setShowGrid(False)
        self.rows.setAlternatingRowColors(True)
        self.rows.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.rows.horizontalHeader()
        for column in range(RowsModel.RELATION):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(RowsModel.RELATION, QHeaderView.ResizeMode.ResizeToContents)

        self.canonical = QLineEdit()
        self.canonical.setPlaceholderText("Key name (canonical)")
        self.synonym = QLineEdit()
        self.synonym.setPlaceholderText("Other name")
        self.relation = QComboBox()
        self.relation.addItem("same", "same")
        self.relation.addItem("distinct", "distinct")
        add = QPushButton("Add")
        remove = QPushButton("Remove")
        remove.setToolTip("Remove the selected rows (Delete)")
        import_csv = QPushButton("Import CSV…")
        export_csv = QPushButton("Export CSV…")
        starter = QPushButton("Add starter lexicon")
        starter.setToolTip("Merge the biology synonyms and distinct pairs shipped with Labeler")

        self.suggestions_model = SuggestionsModel(self)
        self.suggestions = SuggestionsTable()
        self.suggestions.setModel(self.suggestions_model)
        self.suggestions.verticalHeader().hide()
        self.suggestions.setShowGrid(False)
        self.suggestions.setAlternatingRowColors(True)
        self.suggestions.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.suggestions.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 12)
        actions = ActionDelegate(self.suggestions)
        for column in (SuggestionsModel.SAME, SuggestionsModel.DISTINCT):
            self.suggestions.setItemDelegateForColumn(column, actions)
        sheader = self.suggestions.horizontalHeader()
        sheader.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        sheader.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column in range(2, 7):
            sheader.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            sheader.resizeSection(column, NUMBER_WIDTH if column < 5 else BUTTON_WIDTH)
        self.suggestion_status = QLabel()
        refresh = QPushButton("Refresh")

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.count)
        form = QHBoxLayout()
        form.addWidget(self.canonical, 2)
        form.addWidget(self.synonym, 2)
        form.addWidget(self.relation)
        form.addWidget(add)
        files = QHBoxLayout()  # short words: the row fits beside the suggestions at 1024 px
        files.addWidget(remove)
        files.addWidget(starter)
        files.addStretch(1)
        files.addWidget(import_csv)
        files.addWidget(export_csv)
        left_box = QGroupBox("Synonym groups and distinct pairs")
        left = QVBoxLayout(left_box)
        left.addLayout(top)
        left.addWidget(self.rows, 1)
        left.addWidget(self.lint_count)
        left.addWidget(self.lint_list)
        left.addLayout(form)
        left.addLayout(files)

        right_box = QGroupBox("Suggestions from model answers")
        right = QVBoxLayout(right_box)
        hint = QLabel(
            "Names the models wrote that nearly match a key name they missed, or that several "
            "models agree on. One click records the pair; scores update everywhere."
        )
        hint.setWordWrap(True)
        right.addWidget(hint)
        right.addWidget(self.suggestions, 1)
        status = QHBoxLayout()
        status.addWidget(self.suggestion_status, 1)
        status.addWidget(refresh)
        right.addLayout(status)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left_box)
        splitter.addWidget(right_box)
        splitter.setSizes([560, 680])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

        self.search.textChanged.connect(lambda _: self.refresh_rows())
        add.clicked.connect(self.add_row)
        self.synonym.returnPressed.connect(self.add_row)
        remove.clicked.connect(self.remove_selected)
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.rows)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.remove_selected)
        import_csv.clicked.connect(lambda: self.import_csv())
        export_csv.clicked.connect(lambda: self.export_csv())
        starter.clicked.connect(lambda: self.add_rows(starter_rows(), "Add starter lexicon"))
        refresh.clicked.connect(self.refresh_suggestions)
        self.suggestions.clicked.connect(self._suggestion_clicked)

        for signal in (session.project_opened, session.lexicon_changed):
            signal.connect(self.rows_when_shown.invalidate)
            signal.connect(self.suggestions_when_shown.invalidate)
        session.responses_changed.connect(self.suggestions_when_shown.invalidate)
        session.items_changed.connect(self.suggestions_when_shown.invalidate)

    # -- refreshing ---------------------------------------------------------

    def refresh_rows(self) -> None:
        """Re-read the project's global rows into the table, on a worker (the table keeps
        its rows until the new ones arrive)."""
        self.rows_when_shown.stale = False
        project = self.session.project
        if project is None:
            self.rows_job.drop()
            self.rows_model.show(RowsTable())
            self.count.setText("")
            return
        self.rows_job.request(read_rows, project.folder, self.search.text(), self._linted_rows)

    def _rows_read(self, read: RowsRead) -> None:
        self.rows_model.show(read.table)
        self.count.setText(read.counts)
        if read.lint is not None:  # the lint follows edits, not the search box
            self._linted_rows = read.rows
            self.show_lint(read.lint)

    def _rows_failed(self, exc: BaseException) -> None:
        self.count.setText("The lexicon could not be read")
        show_error(exc, self, "Lexicon")

    def show_lint(self, issues: list[LintIssue]) -> None:
        """The lint's count (always visible) and one line per issue (hidden when clean)."""
        if issues:
            kinds = sorted({i.kind.replace("_", " ") for i in issues})
            self.lint_count.setText(f"Lint: {len(issues)} issue(s) ({', '.join(kinds)})")
        else:
            self.lint_count.setText("Lint: no issues")
        self.lint_list.clear()
        self.lint_list.addItems([i.message for i in issues])
        self.lint_list.setVisible(bool(issues))

    def refresh_suggestions(self) -> None:
        """Recompute suggestions on a worker thread (the list stays usable meanwhile)."""
        project = self.session.project
        self.suggestions_when_shown.stale = False
        if project is None:
            self.suggestions_model.set_suggestions([])
            return
        if self.suggestion_worker is not None:
            self.suggestion_worker.cancel()
        self.suggestion_status.setText("Finding suggestions…")
        worker = workers.Worker(compute_suggestions, project.folder)
        # Bound methods, not lambdas: Qt drops the connection if this view is deleted first.
        worker.signals.result.connect(self._suggestions_ready)
        worker.signals.error.connect(self._suggestions_failed)
        self.suggestion_worker = workers.start(worker)

    def _current(self) -> bool:
        """Whether the signal being handled comes from the latest suggestion job."""
        worker = self.suggestion_worker
        return worker is not None and self.sender() is worker.signals

    def _suggestions_failed(self, exc: BaseException) -> None:
        if self._current():
            self.suggestion_worker = None
            self.suggestion_status.setText("Could not compute suggestions")
            show_error(exc, self, "Lexicon")

    def _suggestions_ready(self, suggestions: list[Suggestion]) -> None:
        if not self._current():
            return  # an older computation finished after a newer one started
        self.suggestion_worker = None
        self.suggestions_model.set_suggestions(suggestions)
        self.suggestion_status.setText(
            f"{len(suggestions)} suggestions" if suggestions else "No suggestions: nothing to add"
        )

    # -- edits --------------------------------------------------------------

    def add_row(self) -> None:
        """Add the pair typed in the form."""
        row = (
            self.canonical.text().strip(),
            self.synonym.text().strip(),
            self.relation.currentData(),
        )
        if not row[0] or not row[1]:
            self.session.status_message.emit("Type both names to add a lexicon row")
            return
        if self.add_rows([row], f"Add “{row[1]}” ({row[2]}) to “{row[0]}”"):
            self.synonym.clear()
            self.synonym.setFocus()

    def add_rows(self, rows: list[tuple[str, str, str]], text: str) -> bool:
        """Add rows as one undoable step; False (and a dialog) if the lexicon refuses them."""
        try:
            check_addition(self.session, rows)
        except LabelerError as exc:
            show_error(exc, self, "Lexicon")
            return False
        self.session.undo_stack.push(LexiconEdit(self.session, rows, text=text))
        return True

    def remove_selected(self) -> None:
        """Remove the selected rows as one undoable step."""
        picked = {i.row() for i in self.rows.selectionModel().selectedRows()}
        rows = [self.rows_model.index(r, 0).data(RowRole) for r in sorted(picked)]
        if rows:
            self.session.undo_stack.push(
                LexiconEdit(
                    self.session, rows, remove=True, text=f"Remove {len(rows)} lexicon row(s)"
                )
            )

    def import_csv(self, path: str | None = None) -> None:
        """Merge a ``canonical,synonym,relation`` CSV into the project lexicon."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Import lexicon", "", "CSV (*.csv)")
        if not path:
            return
        try:
            plan = plan_import(self.session.require_project(), path)
        except LabelerError as exc:
            show_error(exc, self, "Lexicon")
            return
        if self.add_rows(list(plan.rows), f"Import {Path(path).name}"):
            lint = f"; {len(plan.issues)} new lint issue(s)" if plan.issues else ""
            self.session.status_message.emit(
                f"Imported {len(plan.rows)} rows from {path} "
                f"({plan.already_present} already present{lint})"
            )

    def export_csv(self, path: str | None = None) -> None:
        """Write the project's global lexicon to a CSV (atomically)."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, "Export lexicon", "lexicon.csv", "CSV (*.csv)"
            )
        if not path:
            return
        try:
            export_csv(self.session.require_project(), path)
        except (LabelerError, OSError) as exc:
            show_error(exc, self, "Lexicon")
            return
        self.session.status_message.emit(f"Lexicon written to {path}")

    def _suggestion_clicked(self, index: QModelIndex) -> None:
        if index.column() not in (SuggestionsModel.SAME, SuggestionsModel.DISTINCT):
            return
        suggestion = self.suggestions_model.suggestions[index.row()]
        relation = "same" if index.column() == SuggestionsModel.SAME else "distinct"
        try:
            promote(self.session, suggestion.pred, suggestion.key, relation)
        except LabelerError as exc:
            show_error(exc, self, "Lexicon")
            return
        self.suggestions_model.drop(suggestion)
