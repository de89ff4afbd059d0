"""Every view at 1024×640, light and dark: every button shown reads whole (gui11).

A broad guard over all five views; the tests of each fix sit beside that view's tests."""

from __future__ import annotations

import pytest

from tests.ui.factory import heart_project
from tests.ui.gui_helpers import clipped_buttons, open_window, settle
from ui.main_window import VIEWS
from ui.theme import apply_theme


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_view_fits_a_1024_by_640_window(qtbot, tmp_path, qapp, theme):
    heart_project(tmp_path / "p").close()
    apply_theme(qapp, theme)
    try:
        window = open_window(qtbot, tmp_path / "p", "curate", 1024, 640)
        for name in VIEWS:
            window.show_view(name)
            settle(qtbot)
            view = window.views[name]
            assert view.isVisible(), name
            assert clipped_buttons(view, window) == [], name
        window.close()
    finally:
        apply_theme(qapp, "light")
