"""The answer-key editor: a table of name, marker and anchor.

The model never changes its rows by itself: every edit (inline rename, add,
delete, merge, split, reorder) builds the new key and pushes a
:class:`~ui.curate.commands.KeyEdit` on the session's undo stack, whose setter
saves it; the Curate view then shows the saved key again. So what is on screen
is always what is stored, and every edit can be undone.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from labeler.curation import clean_marker, merge_entries, split_entry
from labeler.errors import LabelerError
from labeler.store.records import KeyEntry
from ui.curate.commands import KeyEdit, KeySetter
from ui.session import Session

COLUMNS = ("Name", "Marker", "Anchor")
NAME, MARKER, ANCHOR = range(3)


class KeyModel(QAbstractTableModel):
    """Rows of one key; edits become undo commands through ``commit``."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.entries: list[KeyEntry] = []
        self.setter: KeySetter | None = None

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
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return COLUMNS[section] if orientation == Qt.Orientation.Horizontal else str(section + 1)

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
            if entry.anchor is None:
                return "—" if role == Qt.ItemDataRole.DisplayRole else ""
            return f"{entry.anchor[0]:.0f}, {entry.anchor[1]:.0f}"
        if role == Qt.ItemDataRole.ForegroundRole and column == NAME and not entry.name:
            return QColor("#8b949e")  # a hint, not a name: the curator types the name
        if role == Qt.ItemDataRole.ToolTipRole:
            where = (
                "no box"
                if entry.bbox is None
                else "box " + ", ".join(f"{v:.0f}" for v in entry.bbox)
            )
            return f"{entry.name or '(marker only)'} · {where} · from {entry.origin}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column != NAME:
            return int(Qt.AlignmentFlag.AlignCenter)
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and index.column() in (NAME, MARKER) and self.setter is not None:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: QModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        entry = self.entries[index.row()]
        if index.column() == NAME:
            new = KeyEntry(str(value).strip(), entry.bbox, entry.anchor, entry.marker, "manual")
            text = "Rename label"
        elif index.column() == MARKER:
            new = KeyEntry(entry.name, entry.bbox, entry.anchor, clean_marker(str(value)), "manual")
            text = "Set marker"
        else:
            return False
        if not new.name and not new.marker:
            raise LabelerError("a label needs a name or a marker; delete the row instead")
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
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(MARKER, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ANCHOR, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.selectionModel().currentRowChanged.connect(
            lambda cur, _: self.row_selected.emit(cur.row())
        )

        self.buttons: dict[str, QToolButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(2)
        title = QLabel("<b>Answer key</b>", self)
        bar.addWidget(title)
        bar.addStretch(1)
        for name, text, tip, slot in (
            ("add", "Add", "Add a label (Ctrl+Shift+N)", self.add_row),
            ("delete", "Delete", "Delete the selected labels (Del)", self.delete_rows),
            ("merge", "Merge", "Join the selected labels into one (Ctrl+M)", self.merge_rows),
            ("split", "Split", "Split the selected label at commas or spaces", self.split_row),
            ("up", "↑", "Move up (Ctrl+Up)", lambda: self.move(-1)),
            ("down", "↓", "Move down (Ctrl+Down)", lambda: self.move(1)),
        ):
            button = QToolButton(self)
            button.setText(text)
            button.setToolTip(tip)
            button.setAutoRaise(True)
            button.clicked.connect(slot)
            bar.addWidget(button)
            self.buttons[name] = button
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

    # -- row tools ------------------------------------------------------------------

    def load(self, entries: Sequence[KeyEntry], setter: KeySetter | None) -> None:
        """Show a key; keeps the current row where it can."""
        row = self.table.currentIndex().row()
        self.model.load(entries, setter)
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
