"""Table models of the Lexicon view: the project's rows, and the suggestions."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from labeler.scoring.normalize import normalize
from labeler.suggestions import Suggestion

Index = QModelIndex | QPersistentModelIndex
Row = tuple[str, str, str]
RowRole = Qt.ItemDataRole.UserRole + 20


class RowsModel(QAbstractTableModel):
    """Lexicon rows grouped by canonical name (the name shown once per group)."""

    HEADERS = ("Canonical", "Synonym / other name", "Relation")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[Row] = []

    def set_rows(self, rows: list[Row], search: str = "") -> None:
        """Show ``rows`` matching ``search`` (normalised, in either name)."""
        needle = normalize(search) if search.strip() else ""
        shown = [
            r for r in rows if not needle or needle in normalize(r[0]) or needle in normalize(r[1])
        ]
        self.beginResetModel()
        self.rows = sorted(shown, key=lambda r: (r[0].lower(), r[2], r[1].lower()))
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else 3

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        if role == RowRole:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0 and index.row() > 0 and self.rows[index.row() - 1][0] == row[0]:
                return ""  # same group as the row above
            return row[index.column()]
        if role == Qt.ItemDataRole.FontRole and index.column() == 2 and row[2] == "distinct":
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            word = "the same as" if row[2] == "same" else "NOT the same as"
            return f"“{row[1]}” is {word} “{row[0]}”"
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None


class SuggestionsModel(QAbstractTableModel):
    """Ranked suggestions; the last two columns are one-click actions."""

    HEADERS = ("Model wrote", "Key name", "Similar", "Models", "Answers", "", "")
    SAME, DISTINCT = 5, 6

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.suggestions: list[Suggestion] = []

    def set_suggestions(self, suggestions: list[Suggestion]) -> None:
        self.beginResetModel()
        self.suggestions = list(suggestions)
        self.endResetModel()

    def drop(self, suggestion: Suggestion) -> None:
        """Remove a suggestion that was just acted on (before the list is recomputed)."""
        if suggestion in self.suggestions:
            row = self.suggestions.index(suggestion)
            self.beginRemoveRows(QModelIndex(), row, row)
            self.suggestions.pop(row)
            self.endRemoveRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.suggestions)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        s = self.suggestions[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                s.pred,
                s.key,
                f"{s.similarity * 100:.0f}%",
                str(s.n_models),
                str(s.n_answers),
                "Same",
                "Distinct",
            )[column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= 2:
            return Qt.AlignmentFlag.AlignCenter
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.SAME:
                return (
                    f"Record “{s.pred}” as the same as “{s.key}” (rescores {s.n_answers} answers)"
                )
            if column == self.DISTINCT:
                return f"Record “{s.pred}” as distinct from “{s.key}”"
            return f"Written by: {', '.join(s.models)}\nItems: {s.n_items}"
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None
