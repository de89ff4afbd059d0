"""Every view at 1024×640, light and dark: every button shown reads whole (gui11).

A broad guard over all five views; the tests of each fix sit beside that view's tests."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractButton, QWidget

from tests.ui.factory import heart_project
from tests.ui.gui_helpers import wait_idle
from ui.main_window import VIEWS, MainWindow
from ui.theme import apply_theme


def clipped_buttons(root: QWidget, window: QWidget) -> list[tuple[str, int, int]]:
    """(text, width, needed) of every shown button of ``root`` too narrow for its text."""
    found = []
    for button in root.findChildren(QAbstractButton):
        if not button.isVisibleTo(window) or not button.text():
            continue
        needed = button.fontMetrics().horizontalAdvance(button.text().replace("&", ""))
        if button.width() < needed:
            found.append((button.text(), button.width(), needed))
    return found


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_view_fits_a_1024_by_640_window(qtbot, tmp_path, qapp, theme):
    heart_project(tmp_path / "p").close()
    apply_theme(qapp, theme)
    try:
        window = MainWindow()
        window.remember_state = False
        qtbot.addWidget(window)
        window.session.open(tmp_path / "p")
        window.resize(1024, 640)
        window.show()
        for name in VIEWS:
            window.show_view(name)
            wait_idle(qtbot)
            qtbot.wait(50)
            view = window.views[name]
            assert view.isVisible(), name
            assert clipped_buttons(view, window) == [], name
        window.close()
    finally:
        apply_theme(qapp, "light")
