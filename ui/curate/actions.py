"""Curate's keyboard actions, registered so the curator can rebind them (Help ▸ shortcuts).

Each action is scoped to the widget it works in (the whole view, the page viewer, the erase
preview or the key editor), so one key may mean different things in different panels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from ui.curate.preview import TOOLS
from ui.shortcuts import ShortcutRegistry

if TYPE_CHECKING:
    from ui.curate.view import CurateView

#: The erase preview's tools and their keys.
TOOL_KEYS = (
    ("inspect", "I"),
    ("keep", "K"),
    ("extra_boxes", "B"),
    ("removed_boxes", "R"),
    ("mask_strokes", "P"),
)


def register_shortcuts(view: CurateView, registry: ShortcutRegistry) -> None:
    """Register the Curate view's actions under their ids with their default keys."""

    def action(
        action_id: str, text: str, slot: Callable[[], object], key: str, widget: QWidget
    ) -> None:
        act = QAction(text, widget)
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        act.triggered.connect(slot)
        widget.addAction(act)
        registry.register(action_id, act, key)

    preview, viewer, key = view.preview, view.viewer, view.key
    registry.register("curate.toggle_original", preview.toggle_action, "Space")
    action("curate.add_item", "Add draft as item", view.add_draft, "Ctrl+Return", view)
    action("curate.next_item", "Next item", lambda: view.items.step(1), "Alt+Down", view)
    action("curate.previous_item", "Previous item", lambda: view.items.step(-1), "Alt+Up", view)
    action("curate.next_page", "Next page", lambda: viewer.step(1), "PgDown", viewer)
    action("curate.previous_page", "Previous page", lambda: viewer.step(-1), "PgUp", viewer)
    for tool, tool_key in TOOL_KEYS:
        action(
            f"curate.tool.{tool}",
            f"Tool: {TOOLS[tool][0]}",
            lambda _=False, t=tool: preview.set_tool(t),
            tool_key,
            preview,
        )
    for action_id, preview_action, default in (
        ("curate.brush.smaller", preview.smaller_action, "["),
        ("curate.brush.larger", preview.larger_action, "]"),
        ("curate.clear_mask", preview.clear_mask_action, ""),
    ):
        registry.register(action_id, preview_action, default)
    for action_id, text, slot, default in (
        ("key.add", "Add label", key.add_row, "Ctrl+Shift+N"),
        (
            "key.delete",
            "Delete labels",
            key.delete_rows,
            QKeySequence(QKeySequence.StandardKey.Delete).toString(),
        ),
        ("key.merge", "Merge labels", key.merge_rows, "Ctrl+M"),
        ("key.split", "Split label", key.split_row, "Ctrl+Shift+M"),
        ("key.up", "Move label up", lambda: key.move(-1), "Ctrl+Up"),
        ("key.down", "Move label down", lambda: key.move(1), "Ctrl+Down"),
    ):
        action(action_id, text, slot, default, key)
