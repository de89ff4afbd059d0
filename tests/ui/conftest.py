"""The one GUI test set-up: private settings, no modal dialog, a real project with a real PDF."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from labeler.store import Project
from tests.ui.factory import BIG_ITEMS, BIG_MODELS, build_project
from tests.ui.gui_helpers import wait_idle, write_cell_pdf
from ui import errors, workers
from ui.main_window import MainWindow
from ui.session import Session


@pytest.fixture(autouse=True)
def private_settings(tmp_path: Path) -> Iterator[Path]:
    """Every test reads and writes its own settings file, never the user's.

    Errors are printed, not shown modally (nobody answers a dialog offscreen); a test
    that checks what the user is told asks for ``dialogs`` instead.
    """
    folder = tmp_path / "settings"
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    errors.set_interactive(False)
    yield folder
    errors.set_interactive(True)


@pytest.fixture
def dialogs(monkeypatch: pytest.MonkeyPatch, private_settings: Path) -> list[tuple[str, str]]:
    """Message boxes shown during the test, as (text, informative text); none blocks."""
    shown: list[tuple[str, str]] = []
    errors.set_interactive(True)

    def record(box: QMessageBox) -> int:
        shown.append((box.text(), box.informativeText()))
        return int(QMessageBox.StandardButton.Ok)

    monkeypatch.setattr(QMessageBox, "exec", record)
    return shown


@pytest.fixture
def cell_pdf(tmp_path: Path) -> Path:
    """The test PDF (made with pymupdf, on disk)."""
    return write_cell_pdf(tmp_path / "cells.pdf")


@pytest.fixture
def project_dir(tmp_path: Path, cell_pdf: Path) -> Path:
    """A project with the test PDF recorded as its only source."""
    folder = tmp_path / "project"
    with Project.create(folder, name="Cells") as project:
        project.sources.add(cell_pdf, kind="pdf", page_count=2)
    return folder


@pytest.fixture(scope="session")
def big_project(tmp_path_factory) -> Path:
    """10,000 answers: :data:`~tests.ui.factory.BIG_ITEMS` items × the five
    :data:`~tests.ui.factory.BIG_MODELS` × 4 conditions, built once per session (no
    figures: they cost build time and no view the stall tests time reads one)."""
    folder = tmp_path_factory.mktemp("scale") / "p10k"
    build_project(folder, n_items=BIG_ITEMS, models=BIG_MODELS, images=False).close()
    return folder


@pytest.fixture
def window(qtbot, project_dir: Path) -> MainWindow:
    """The main window on the test project, shown at 1280×800, background work settled."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.session.open(project_dir)
    win.show_view("curate")
    win.show()
    qtbot.waitExposed(win)
    wait_idle(qtbot)
    yield win
    wait_idle(qtbot)
    win.remember_state = False  # qtbot closes it; the layout must not leak into other tests


@pytest.fixture
def session(qtbot):
    """A session that is closed (and its workers drained) after the test."""
    s = Session()
    yield s
    qtbot.waitUntil(lambda: not workers.busy(), timeout=20_000)
    s.close()
