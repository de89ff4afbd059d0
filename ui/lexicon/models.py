"""Table models of the Lexicon view: the project's rows, and the suggestions."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from labeler.lexicon import Lexicon, LexiconRow, SynonymGroup
from labeler.suggestions import Suggestion
from labeler.text.normalize import normalize

Index = QModelIndex | QPersistentModelIndex
Row = tuple[str, str, str]
RowRole = Qt.ItemDataRole.UserRole + 20


@dataclass(frozen=True)
class RowsTable:
    """What the rows table shows for one search: each row, its group's name on the group's
    first row (else ""), and its group's members (the tooltip)."""

    rows: list[Row] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    members: list[str] = field(default_factory=list)


def rows_table(lexicon: Lexicon, search: str = "") -> RowsTable:
    """The groups (whole) and distinct rows with a name matching ``search``, in the table's
    order. Plain Python over the whole lexicon: the view runs it on a worker."""
    needle = normalize(search) if search.strip() else ""

    def hit(*names: str) -> bool:
        return not needle or any(needle in normalize(n) for n in names)

    sections: list[tuple[str, str, list[LexiconRow]]] = [
        (g.canonical, _members_text(g), list(g.rows))
        for g in sorted(lexicon.groups(), key=lambda g: g.canonical.lower())
        if hit(*g.members)
    ]
    distinct = [
        r for r in lexicon.rows() if r.relation == "distinct" and hit(r.canonical, r.synonym)
    ]
    if distinct:
        order = sorted(distinct, key=lambda r: (r.canonical.lower(), r.synonym.lower()))
        sections.append(("Distinct pairs", "Pairs of names that are not the same", order))
    return RowsTable(
        rows=[(r.canonical, r.synonym, r.relation) for *_, rows in sections for r in rows],
        labels=[name if n == 0 else "" for name, _, rows in sections for n in range(len(rows))],
        members=[text for _, text, rows in sections for _ in rows],
    )


class RowsModel(QAbstractTableModel):
    """Lexicon rows by synonym group (:meth:`labeler.lexicon.Lexicon.groups`), then the
    distinct rows; a group's name is shown on its first row only, its members as a tooltip."""

    HEADERS = ("Group", "Canonical", "Other name", "Relation")
    RELATION = 3

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[Row] = []
        self.labels: list[str] = []  # per row: its group's name, or "" under the first row
        self.members: list[str] = []  # per row: its group's members, for the tooltip

    def show(self, table: RowsTable) -> None:
        """Show a :func:`rows_table`."""
        self.beginResetModel()
        self.rows, self.labels, self.members = table.rows, table.labels, table.members
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self.HEADERS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, column = self.rows[index.row()], index.column()
        if role == RowRole:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return self.labels[index.row()] if column == 0 else row[column - 1]
        if role == Qt.ItemDataRole.FontRole and (
            (column == 0) or (column == self.RELATION and row[2] == "distinct")
        ):
            font = QFont()
            font.setBold(column == 0)
            font.setItalic(column == self.RELATION)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == 0:
            return self.members[index.row()]
        if role == Qt.ItemDataRole.ToolTipRole:
            word = "the same as" if row[2] == "same" else "NOT the same as"
            return f"“{row[1]}” is {word} “{row[0]}”"
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None


def _members_text(group: SynonymGroup) -> str:
    return f"{len(group.members)} names, all the same: " + " = ".join(group.members)


class SuggestionsModel(QAbstractTableModel):
    """Ranked suggestions; the last two columns are one-click actions."""

    HEADERS = ("Model wrote", "Key name", "Similar", "Models", "Answers", "", "")
    MODELS, ANSWERS, SAME, DISTINCT = 3, 4, 5, 6

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
            return f"Written by: {', '.join(s.models)}\nItems: {s.n_items} · answers: {s.n_answers}"
        return None

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None
