"""Fixtures for the review-side GUI tests: offscreen Qt, isolated settings, real projects."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from ui import errors, workers
from ui.session import Session


@pytest.fixture(autouse=True)
def quiet_gui(tmp_path, qapp):
    """No modal dialogs; Qt settings in a temp folder so tests never touch the user's."""
    errors.set_interactive(False)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))
    yield
    errors.set_interactive(True)


@pytest.fixture
def session(qtbot):
    """A session that is closed (and its workers drained) after the test."""
    s = Session()
    yield s
    qtbot.waitUntil(lambda: not workers.busy(), timeout=20_000)
    s.close()
