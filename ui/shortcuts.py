"""Configurable keyboard shortcuts.

Every shortcut-bearing ``QAction`` is registered under a stable id with a
default key. The user's overrides live in the settings under ``shortcuts/<id>``;
:class:`ShortcutsDialog` edits them. Views register their own actions, so the
table grows with the application without a central list to keep in sync.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QKeySequenceEdit,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.settings import app_settings


class ShortcutRegistry:
    """Actions by id, with their default keys; applies the user's overrides."""

    def __init__(self) -> None:
        self._actions: dict[str, tuple[QAction, str]] = {}

    def register(self, action_id: str, action: QAction, default: str | QKeySequence) -> QAction:
        """Give ``action`` its configured shortcut (the user's, else ``default``)."""
        default_text = (
            default.toString()
            if isinstance(default, QKeySequence)
            else QKeySequence(default).toString()
        )
        self._actions[action_id] = (action, default_text)
        action.setShortcut(QKeySequence(self.key(action_id)))
        return action

    def ids(self) -> list[str]:
        """Registered ids in registration order."""
        return list(self._actions)

    def action(self, action_id: str) -> QAction:
        """The action registered under ``action_id``."""
        return self._actions[action_id][0]

    def default(self, action_id: str) -> str:
        """The built-in key of ``action_id``."""
        return self._actions[action_id][1]

    def key(self, action_id: str) -> str:
        """The key in force: the user's override if any, else the default."""
        value = app_settings().value(f"shortcuts/{action_id}")
        return self.default(action_id) if value is None else str(value)

    def set_keys(self, keys: dict[str, str]) -> None:
        """Store overrides (a key equal to the default removes the override) and apply them."""
        settings = app_settings()
        for action_id, key in keys.items():
            if key == self.default(action_id):
                settings.remove(f"shortcuts/{action_id}")
            else:
                settings.setValue(f"shortcuts/{action_id}", key)
            self.action(action_id).setShortcut(QKeySequence(key))

    def conflicts(self, keys: dict[str, str]) -> dict[str, list[str]]:
        """Keys that would fire two actions at once: key -> action ids.

        The same key in two views is fine (each action is scoped to its own
        widget); it clashes only where the scopes overlap: a window-wide action,
        or one widget inside the other.
        """
        by_key: dict[str, list[str]] = {}
        for action_id, key in keys.items():
            if key:
                by_key.setdefault(key, []).append(action_id)
        clashes: dict[str, list[str]] = {}
        for key, ids in by_key.items():
            hit = {
                x
                for i, a in enumerate(ids)
                for b in ids[i + 1 :]
                if self._overlap(a, b)
                for x in (a, b)
            }
            if hit:
                clashes[key] = [i for i in ids if i in hit]
        return clashes

    def _scope(self, action_id: str) -> QWidget | None:
        """The widget an action is limited to, or None when it works window-wide."""
        action = self.action(action_id)
        if action.shortcutContext() not in (
            Qt.ShortcutContext.WidgetShortcut,
            Qt.ShortcutContext.WidgetWithChildrenShortcut,
        ):
            return None
        widgets = [w for w in action.associatedObjects() if isinstance(w, QWidget)]
        return widgets[0] if widgets else None

    def _overlap(self, a: str, b: str) -> bool:
        wa, wb = self._scope(a), self._scope(b)
        if wa is None or wb is None:
            return True
        return wa is wb or wa.isAncestorOf(wb) or wb.isAncestorOf(wa)


# Where an action works, from the first part of its id ("curate.next_page" -> Curate).
AREAS = {"file": "File", "edit": "Edit", "view": "View", "key": "Answer key"}


def area_of(action_id: str) -> str:
    """The group an action id belongs to, as shown in the dialog."""
    prefix = action_id.split(".", 1)[0]
    return AREAS.get(prefix, prefix.title())


class ShortcutsDialog(QDialog):
    """A table of actions and their keys; edits apply when the user presses OK."""

    def __init__(self, registry: ShortcutRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.registry = registry
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(620, 560)
        self.table = QTableWidget(len(registry.ids()), 3, self)
        self.table.setHorizontalHeaderLabels(["Where", "Action", "Shortcut"])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self.table.setColumnWidth(2, 200)
        self.editors: dict[str, QKeySequenceEdit] = {}
        for row, action_id in enumerate(registry.ids()):
            text = registry.action(action_id).text().replace("&", "").rstrip(".…")
            for column, value in enumerate((area_of(action_id), text)):
                item = QTableWidgetItem(value)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(action_id)
                self.table.setItem(row, column, item)
            editor = QKeySequenceEdit(QKeySequence(registry.key(action_id)), self.table)
            editor.setClearButtonEnabled(True)
            editor.setMaximumSequenceLength(1)
            editor.keySequenceChanged.connect(self._check)
            self.table.setCellWidget(row, 2, editor)
            self.editors[action_id] = editor
        self.warning = QLabel(self)
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #c92a2a;")
        reset = QPushButton("Restore defaults", self)
        reset.clicked.connect(self.restore_defaults)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.addButton(reset, QDialogButtonBox.ButtonRole.ResetRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.warning)
        layout.addWidget(buttons)

    def keys(self) -> dict[str, str]:
        """The keys as currently edited."""
        return {i: e.keySequence().toString() for i, e in self.editors.items()}

    def restore_defaults(self) -> None:
        """Put every editor back to its built-in key."""
        for action_id, editor in self.editors.items():
            editor.setKeySequence(QKeySequence(self.registry.default(action_id)))

    def _check(self) -> None:
        clashes = self.registry.conflicts(self.keys())
        names = [f"{k}: {', '.join(v)}" for k, v in clashes.items()]
        self.warning.setText("Used twice — " + "; ".join(names) if names else "")
        self.ok_button.setEnabled(not clashes)

    def accept(self) -> None:
        """Store and apply the edited keys."""
        self.registry.set_keys(self.keys())
        super().accept()
