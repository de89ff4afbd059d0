"""A first start without a project offers New, Open and the demo instead of an empty view."""

from __future__ import annotations

import pytest

from labeler.demo import REAL_FIGURES
from tests.ui.gui_helpers import wait_idle
from ui import welcome
from ui.main_window import MainWindow


@pytest.fixture
def bare_window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1024, 640)
    win.show()
    qtbot.waitExposed(win)
    yield win
    wait_idle(qtbot, timeout=60_000)
    win.remember_state = False


def test_no_project_shows_the_welcome_page_and_the_demo_opens_from_it(
    qtbot, bare_window, tmp_path, monkeypatch, dialogs
):
    assert bare_window.stack.currentWidget() is bare_window.welcome
    bare_window.show_view("review")  # the sidebar cannot show an empty view either
    assert bare_window.stack.currentWidget() is bare_window.welcome
    monkeypatch.setattr(welcome, "demo_folder", lambda: tmp_path / "demo")
    bare_window.welcome.demo_button.click()
    assert not bare_window.welcome.demo_button.isEnabled()  # building, in a job
    qtbot.waitUntil(lambda: bare_window.session.project is not None, timeout=300_000)
    assert bare_window.stack.currentWidget() is bare_window.views["review"]
    assert len(bare_window.session.require_project().items.list()) == len(REAL_FIGURES) + 8
    assert dialogs == []
