"""The answer-key editor: a table of name, marker, alternatives and note.

Alternatives are other names printed with a label ("eardrum" for "Tympanic
membrane (eardrum)"), typed separated by ";" and scored as the same part; the
note is printed text that is not a name ("cut"). The model never changes its
rows by itself: every edit (inline rename, alternatives, note, add, delete,
merge, split, tidy, reorder) builds the new key and pushes a
:class:`~ui.curate.commands.KeyEdit` on the session's undo stack, whose setter
saves it; the Curate view then shows the saved key again. So what is on screen
is always what is stored, and every edit can be undone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from labeler.curation import (
    clean_marker,
    edit_entry,
    format_alternatives,
    merge_entries,
    parse_alternatives,
    split_entry,
    tidy_entry,
)
from labeler.errors import LabelerError
from labeler.store.records import KeyEntry
from ui.curate.commands import KeyEdit, KeySetter
from ui.session import Session

# The anchor is in the row's tooltip (and drawn on the preview): the panel is
# narrow, and names need the width more than a pair of coordinates does.
COLUMNS = ("Name", "Marker", "Alternatives", "Note")
SHORT_COLUMNS = ("Name", "Mk", "Alt.", "Note")  # headings of a narrow panel (tooltips: whole)
NAME, MARKER, ALTERNATIVES, NOTE = range(4)
HELP = {
    ALTERNATIVES: "other names of this part, separated by ';' (answers using them count)",
    NOTE: "printed text that is not a name (e.g. cut, I-XII); never scored",
}


def heading(metrics: QFontMetrics, title: str) -> int:
    """The width a column heading ``title`` needs, in pixels."""
    return metrics.horizontalAdvance(title) + 14


class KeyModel(QAbstractTableModel):
    """Rows of one key; edits become undo commands through ``commit``."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.entries: list[KeyEntry] = []
        self.setter: KeySetter | None = None
        self.short_headings = False

    def load(self, entries: Sequence[KeyEntry], setter: KeySetter | None) -> None:
        """Show ``entries``; ``setter`` saves a new version (None: read-only)."""
        self.beginResetModel()
        self.entries = list(entries)
        self.setter = setter
        self.endResetModel()

    def commit(self, new: Sequence[KeyEntry], text: str) -> None:
        """Push the edit from the current rows to ``new`` on the undo stack."""
        if self.setter is None or list(new) == self.entries:
            return
        self.session.undo_stack.push(KeyEdit(self.setter, self.entries, new, text))

    # -- Qt model -----------------------------------------------------------------

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ):
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == Qt.ItemDataRole.ToolTipRole and horizontal:
            return COLUMNS[section] + (f": {HELP[section]}" if section in HELP else "")
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if not horizontal:
            return str(section + 1)
        return (SHORT_COLUMNS if self.short_headings else COLUMNS)[section]

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        entry = self.entries[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole and column == NAME and not entry.name:
            return f"name marker {entry.marker}…"
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if column == NAME:
                return entry.name
            if column == MARKER:
                return entry.marker or ""
            if column == ALTERNATIVES:
                return format_alternatives(entry.alternatives)
            if column == NOTE:
                return entry.note
            return None
        if role == Qt.ItemDataRole.ForegroundRole and column == NAME and not entry.name:
            return QColor("#8b949e")  # a hint, not a name: the curator types the name
        if role == Qt.ItemDataRole.ToolTipRole:
            if column in HELP:
                value = self.data(index, Qt.ItemDataRole.DisplayRole)
                return f"{value}\n({HELP[column]})" if value else HELP[column].capitalize()
            where = (
                "no box"
                if entry.bbox is None
                else "box " + ", ".join(f"{v:.0f}" for v in entry.bbox)
            )
            points = (
                "no anchor"
                if entry.anchor is None
                else f"points at {entry.anchor[0]:.0f}, {entry.anchor[1]:.0f}"
            )
            return f"{entry.name or '(marker only)'} · {where} · {points} · from {entry.origin}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column == MARKER:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and self.setter is not None:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: QModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        entry, column, typed = self.entries[index.row()], index.column(), str(value)
        if column == NAME:
            new, text = edit_entry(entry, name=typed), "Rename label"
        elif column == MARKER:
            new = dataclasses.replace(entry, marker=clean_marker(typed), origin="manual")
            if not new.name and not new.marker:
                raise LabelerError("a label needs a name or a marker; delete the row instead")
            text = "Set marker"
        elif column == ALTERNATIVES:
            new, text = (
                edit_entry(entry, alternatives=parse_alternatives(typed)),
                "Set alternatives",
            )
        elif column == NOTE:
            new, text = edit_entry(entry, note=typed), "Set note"
        else:
            return False
        rows = list(self.entries)
        rows[index.row()] = new
        self.commit(rows, text)
        return True


class KeyEditor(QWidget):
    """The key table with its row tools (add, delete, merge, split, up, down)."""

    row_selected = Signal(int)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = KeyModel(session, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        header = self.table.horizontalHeader()
        for column, mode in (
            (NAME, QHeaderView.ResizeMode.Stretch),
            (MARKER, QHeaderView.ResizeMode.Interactive),
            (ALTERNATIVES, QHeaderView.ResizeMode.Interactive),
            (NOTE, QHeaderView.ResizeMode.Interactive),
        ):
            header.setSectionResizeMode(column, mode)
        self._fit_columns()  # the name stretches; alternatives and note can be dragged
        # a name wider than its column wraps onto a second line instead of ending in "…"
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.verticalHeader().setMinimumSectionSize(26)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().currentRowChanged.connect(
            lambda cur, _: self.row_selected.emit(cur.row())
        )

        self.buttons: dict[str, QToolButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(2)
        title = QLabel("<b>Answer key</b>", self)
        title.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        bar.addWidget(title)
        bar.addStretch(1)
        # a tool bar, not a row of buttons: when the panel is narrow (1024 px windows) the
        # buttons that do not fit go behind its » menu instead of being squeezed to "D…e"
        tools = QToolBar(self)
        tools.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        bar.addWidget(tools, 0, Qt.AlignmentFlag.AlignRight)
        for name, text, tip, slot in (
            ("add", "Add", "Add a label (Ctrl+Shift+N)", self.add_row),
            ("delete", "Delete", "Delete the selected labels (Del)", self.delete_rows),
            ("merge", "Merge", "Join the selected labels into one (Ctrl+M)", self.merge_rows),
            ("split", "Split", "Split the selected label at commas or spaces", self.split_row),
            (
                "tidy",
                "Tidy",
                "Read alternatives and a note out of the selected names, as harvest does: "
                "'Aorta (cut)' becomes Aorta with note 'cut'",
                self.tidy_rows,
            ),
            ("up", "↑", "Move up (Ctrl+Up)", lambda: self.move(-1)),
            ("down", "↓", "Move down (Ctrl+Down)", lambda: self.move(1)),
        ):
            button = QToolButton(self)
            button.setText(text)
            button.setToolTip(tip)
            button.setAutoRaise(True)
            button.clicked.connect(slot)
            tools.addWidget(button)
            self.buttons[name] = button
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Keep the name column readable in a narrow panel (a 1024 px window)."""
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Marker, alternatives and note get a share of the table (as wide as their headings
        when there is room); in a narrow panel (a 1024 px window) they shrink to short
        headings (the tooltips have the whole ones), so the name column keeps the rest, and a
        name longer than that wraps. A column is never narrower than its longest word (up to a
        third of the table): a note wraps between words, it is not cut to "memb"."""
        width = max(self.table.viewport().width(), 1)
        header = self.table.horizontalHeader()
        metrics = header.fontMetrics()
        shares = ((MARKER, 9, 56, 30), (ALTERNATIVES, 5, 96, 44), (NOTE, 7, 64, 42))
        words = {c: min(self._longest_word(c), width // 3) for c, *_ in shares}
        roomy = {
            c: max(heading(metrics, COLUMNS[c]), min(most, width // share), words[c])
            for c, share, most, _ in shares
        }
        names = [metrics.horizontalAdvance(e.name) + 16 for e in self.model.entries]
        narrow = width - sum(roomy.values()) < max(names, default=0)
        if narrow != self.model.short_headings:
            self.model.short_headings = narrow
            self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, MARKER, NOTE)
        for column, share, _, least in shares:
            fit = max(least, width // share, words[column])
            header.resizeSection(column, fit if narrow else roomy[column])

    def _longest_word(self, column: int) -> int:
        """The width the longest word in ``column`` needs, padding included (0: empty)."""
        metrics = self.table.fontMetrics()
        texts = (self.model.index(row, column).data() for row in range(self.model.rowCount()))
        widths = [metrics.horizontalAdvance(w) for text in texts for w in str(text or "").split()]
        return max(widths) + 12 if widths else 0

    # -- row tools ------------------------------------------------------------------

    def load(self, entries: Sequence[KeyEntry], setter: KeySetter | None) -> None:
        """Show a key; keeps the current row where it can."""
        row = self.table.currentIndex().row()
        self.model.load(entries, setter)
        self._fit_columns()
        for button in self.buttons.values():
            button.setEnabled(setter is not None)
        if 0 <= row < len(entries):
            self.select_rows([row])

    def selected_rows(self) -> list[int]:
        """Selected row numbers, ascending."""
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def select_rows(self, rows: Sequence[int]) -> None:
        """Select ``rows`` (the first becomes current)."""
        selection = self.table.selectionModel()
        flags = selection.SelectionFlag
        selection.clearSelection()
        if rows:
            selection.setCurrentIndex(self.model.index(rows[0], NAME), flags.NoUpdate)
        for row in rows:
            selection.select(self.model.index(row, NAME), flags.Select | flags.Rows)

    def add_row(self) -> None:
        """Append a label and start editing its name."""
        rows = [*self.model.entries, KeyEntry(name="New label")]
        self.model.commit(rows, "Add label")
        if len(self.model.entries) == len(rows):
            index = self.model.index(len(rows) - 1, NAME)
            self.table.setCurrentIndex(index)
            self.table.edit(index)

    def delete_rows(self) -> None:
        """Delete the selected labels."""
        gone = set(self.selected_rows())
        if gone:
            rows = [e for i, e in enumerate(self.model.entries) if i not in gone]
            self.model.commit(rows, f"Delete {len(gone)} label{'s' * (len(gone) > 1)}")

    def merge_rows(self) -> None:
        """Join the selected labels into one at the first one's place."""
        chosen = self.selected_rows()
        if len(chosen) < 2:
            return
        entries = self.model.entries
        one = merge_entries([entries[i] for i in chosen])
        rows = [e for i, e in enumerate(entries) if i not in chosen]
        rows.insert(chosen[0], one)
        self.model.commit(rows, f"Merge {len(chosen)} labels")
        self.select_rows([chosen[0]])

    def split_row(self) -> None:
        """Split the current label into several."""
        chosen = self.selected_rows()
        if len(chosen) != 1:
            return
        row = chosen[0]
        parts = split_entry(self.model.entries[row])
        if len(parts) > 1:
            rows = list(self.model.entries)
            rows[row : row + 1] = parts
            self.model.commit(rows, "Split label")
            self.select_rows(list(range(row, row + len(parts))))

    def tidy_rows(self) -> None:
        """Split alternatives and notes out of the selected labels' names (one undo step)."""
        chosen = set(self.selected_rows())
        rows = [tidy_entry(e) if i in chosen else e for i, e in enumerate(self.model.entries)]
        self.model.commit(rows, f"Tidy {len(chosen)} label{'s' * (len(chosen) > 1)}")

    def move(self, step: int) -> None:
        """Move the selected labels up (-1) or down (+1) as a block."""
        chosen = self.selected_rows()
        rows = list(self.model.entries)
        if not chosen or chosen[0] + step < 0 or chosen[-1] + step >= len(rows):
            return
        block = [rows[i] for i in chosen]
        rest = [e for i, e in enumerate(rows) if i not in set(chosen)]
        at = chosen[0] + step
        rest[at:at] = block
        self.model.commit(rest, "Reorder labels")
        self.select_rows([at + i for i in range(len(block))])
