"""File ▸ New project starts with the starter lexicon unless its File-menu checkbox is off."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog

from labeler.lexicon import load_starter
from ui import errors, workers
from ui.main_window import MainWindow


@pytest.fixture
def window(tmp_path, qtbot, qapp):
    errors.set_interactive(False)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))
    win = MainWindow()
    win.remember_state = False
    qtbot.addWidget(win)
    yield win
    qtbot.waitUntil(lambda: not workers.busy(), timeout=20_000)
    errors.set_interactive(True)


def new_project(window, monkeypatch, folder) -> None:
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    window.shortcuts.action("file.new").trigger()
    assert window.session.require_project().folder == folder


def test_new_project_has_the_starter_by_default(tmp_path, window, monkeypatch):
    assert window.starter_action.isCheckable() and window.starter_action.isChecked()
    new_project(window, monkeypatch, tmp_path / "with")
    rows = window.session.require_project().lexicon.rows()
    assert len(rows) == len(load_starter())


def test_unchecking_the_box_gives_an_empty_lexicon_and_is_remembered(
    tmp_path, qtbot, window, monkeypatch
):
    window.starter_action.setChecked(False)
    new_project(window, monkeypatch, tmp_path / "without")
    assert window.session.require_project().lexicon.rows() == []
    again = MainWindow()
    again.remember_state = False
    qtbot.addWidget(again)
    assert not again.starter_action.isChecked()
