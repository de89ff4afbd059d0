"""The window around the views: state restore, errors as dialogs, shortcuts, themes, launchers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication

from labeler.cli import main as cli_main
from labeler.errors import DocumentError
from labeler.store import Project
from tests.ui.gui_helpers import wait_idle
from ui import main_window
from ui.errors import install_excepthook, show_error
from ui.main_window import MainWindow, Placeholder
from ui.settings import app_settings, recent_projects
from ui.shortcuts import ShortcutsDialog
from ui.theme import apply_theme


def test_window_geometry_view_and_panels_are_restored(qtbot, project_dir: Path):
    first = MainWindow()
    qtbot.addWidget(first)
    first.session.open(project_dir)
    first.show()
    first.resize(960, 650)
    qtbot.waitUntil(lambda: first.size().height() == 650)
    first.views["curate"].splitter.setSizes([400, 300, 240])
    sizes = first.views["curate"].splitter.sizes()
    first.show_view("run")
    wait_idle(qtbot)
    first.close()  # closing writes the layout

    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    assert (second.width(), second.height()) == (960, 650)
    assert second.current_view_name() == "run"
    assert second.stack.currentWidget() is second.welcome  # no project yet: the welcome page
    second.session.open(project_dir)
    second.show_view("curate")
    qtbot.waitUntil(lambda: second.views["curate"].splitter.sizes() == sizes)
    assert recent_projects() == [str(project_dir.resolve())]
    second.remember_state = False


def test_labeler_error_from_a_slot_is_a_dialog_not_a_traceback(qtbot, window, dialogs):
    install_excepthook(lambda: window)
    try:
        # An exception escaping a slot reaches sys.excepthook (PySide calls it).
        sys.excepthook(DocumentError, DocumentError("page 9 does not exist"), None)
        sys.excepthook(ValueError, ValueError("boom"), None)
    finally:
        sys.excepthook = sys.__excepthook__
    assert dialogs[0] == ("page 9 does not exist", "")
    assert dialogs[1][0].startswith("Something went wrong inside Labeler")
    assert dialogs[1][1] == "ValueError: boom"


def test_opening_a_folder_that_is_no_project_shows_why(qtbot, window, dialogs, tmp_path: Path):
    before = window.session.project
    window.open_project(tmp_path / "nothing-here")
    assert "is not a Labeler project" in dialogs[0][0]
    assert window.session.project is before  # the open project stays open


def test_show_error_without_a_display_prints(capsys):
    from ui import errors

    errors.set_interactive(False)
    try:
        show_error(DocumentError("cannot read x.pdf"))
    finally:
        errors.set_interactive(True)
    assert "cannot read x.pdf" in capsys.readouterr().err


def test_shortcuts_are_edited_in_the_dialog_and_remembered(qtbot, window):
    undo = window.shortcuts.action("edit.undo")
    assert undo.shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    dialog = ShortcutsDialog(window.shortcuts, window)
    qtbot.addWidget(dialog)
    dialog.editors["edit.undo"].setKeySequence(QKeySequence("Ctrl+Alt+U"))
    dialog.editors["curate.add_item"].setKeySequence(QKeySequence("Ctrl+Alt+U"))
    assert not dialog.ok_button.isEnabled() and "Used twice" in dialog.warning.text()
    dialog.editors["curate.add_item"].setKeySequence(QKeySequence("Ctrl+Return"))
    assert dialog.ok_button.isEnabled()
    # The same key in two separate views is no clash; inside one view it is.
    dialog.editors["curate.tool.keep"].setKeySequence(QKeySequence("J"))
    dialog.editors["curate.next_page"].setKeySequence(QKeySequence("J"))
    assert dialog.ok_button.isEnabled()
    dialog.editors["curate.tool.inspect"].setKeySequence(QKeySequence("J"))
    assert not dialog.ok_button.isEnabled()
    assert "curate.tool.inspect" in dialog.warning.text()
    dialog.editors["curate.tool.inspect"].setKeySequence(QKeySequence("I"))
    dialog.accept()
    assert undo.shortcut().toString() == "Ctrl+Alt+U"

    again = MainWindow()
    qtbot.addWidget(again)
    assert again.shortcuts.action("edit.undo").shortcut().toString() == "Ctrl+Alt+U"
    assert (
        again.shortcuts.key("file.open") == QKeySequence(QKeySequence.StandardKey.Open).toString()
    )
    again.remember_state = False


def test_dark_palette_is_applied_and_remembered(qtbot, window):
    app = QApplication.instance()
    try:
        window.theme_actions["dark"].trigger()
        window_colour = app.palette().color(QPalette.ColorRole.Window)
        text_colour = app.palette().color(QPalette.ColorRole.WindowText)
        assert window_colour.lightness() < 60 and text_colour.lightness() > 200
        canvas = window.views["curate"].viewer.canvas
        assert canvas.backgroundBrush().color().lightness() < 100  # open views follow
        again = MainWindow()
        qtbot.addWidget(again)
        assert again.theme_actions["dark"].isChecked()
        again.remember_state = False
    finally:
        apply_theme(app, "light")
    assert app.palette().color(QPalette.ColorRole.Window) == QColor("#f3f4f6")


def test_a_view_that_is_not_built_yet_is_a_placeholder(qtbot, monkeypatch):
    monkeypatch.setitem(main_window.VIEWS, "run", ("Run", "ui.not_here.view:RunView"))
    win = MainWindow()
    qtbot.addWidget(win)
    assert isinstance(win.views["run"], Placeholder)
    assert "not part of this build" in win.views["run"].text()
    win.remember_state = False


def test_view_menu_switches_views_by_keyboard(qtbot, window):
    window.shortcuts.action("view.lexicon").trigger()
    assert window.current_view_name() == "lexicon"
    assert window.stack.currentWidget() is window.views["lexicon"]


def non_blank(path: Path) -> QImage:
    image = QImage(str(path))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 16) for y in range(0, 800, 16)}
    assert len(colours) > 20  # text, tables and a page, not an empty window
    return image


def test_gui_command_writes_a_screenshot_without_touching_user_settings(
    qtbot, project_dir: Path, tmp_path: Path
):
    app_settings().setValue("ui/theme", "dark")
    out = tmp_path / "shots" / "curate.png"
    assert cli_main(["gui", str(project_dir), "--view", "curate", "--screenshot", str(out)]) == 0
    image = non_blank(out)
    assert QColor(image.pixel(1270, 300)).lightness() > 200  # the default (light) palette
    assert app_settings().value("ui/theme") == "dark"
    assert app_settings().value("recent/projects") is None  # a screenshot is not a visit


def test_gui_command_on_a_bad_folder_is_one_clear_error(capsys, tmp_path: Path):
    assert cli_main(["gui", str(tmp_path), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "is not a Labeler project" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_demo_command_builds_a_project_and_screenshots_every_view(qtbot, tmp_path: Path):
    folder = tmp_path / "demo"
    shots = tmp_path / "shots"
    assert cli_main(["demo", "--project", str(folder), "--screenshot-dir", str(shots)]) == 0
    with Project.open(folder) as project:
        assert project.items.list() and project.responses.latest()  # curated, with answers
    names = sorted(p.name for p in shots.glob("*.png"))
    assert names == sorted(f"{v}.png" for v in main_window.VIEWS)
    non_blank(shots / "curate.png")


@pytest.mark.parametrize("key", [Qt.Key.Key_Plus, Qt.Key.Key_Minus])
def test_page_zoom_keys(qtbot, window, key):
    from PySide6.QtTest import QTest

    view = window.views["curate"]
    view.items.tabs.setCurrentIndex(1)
    view.items.sources.selectRow(0)
    qtbot.waitUntil(lambda: view.viewer.info is not None)
    canvas = view.viewer.canvas
    before = canvas.zoom()
    QTest.keyClick(canvas, key)
    assert (canvas.zoom() > before) == (key == Qt.Key.Key_Plus)
    wait_idle(qtbot)
    qtbot.waitUntil(lambda: abs(canvas.rendered_dpi - min(300, 72 * canvas.zoom())) < 2)


def test_file_menu_new_project_add_pdf_and_recent(qtbot, window, monkeypatch, tmp_path: Path):
    from PySide6.QtWidgets import QFileDialog

    from tests.ui.gui_helpers import write_cell_pdf

    old = window.session.require_project().folder
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(fresh))
    window.shortcuts.action("file.new").trigger()
    assert window.session.require_project().folder == fresh
    assert window.windowTitle() == "fresh — Labeler"

    pdf = write_cell_pdf(tmp_path / "more.pdf")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(pdf), ""))
    window.shortcuts.action("file.add_pdf").trigger()
    curate = window.views["curate"]
    qtbot.waitUntil(lambda: curate.viewer.info is not None and curate.viewer.info.path == str(pdf))
    [source] = window.session.require_project().sources.all()
    assert (source.page_count, source.kind) == (2, "pdf")

    window.recent_menu.aboutToShow.emit()
    paths = [a.text() for a in window.recent_menu.actions()]
    assert paths == [str(fresh.resolve()), str(old.resolve())]
    window.recent_menu.actions()[1].trigger()
    assert window.session.require_project().folder == old
    wait_idle(qtbot)


def test_export_menu_opens_the_export_dialog_for_the_open_project(qtbot, window, monkeypatch):
    from ui.export.dialog import ExportDialog

    opened: list[str] = []
    monkeypatch.setattr(ExportDialog, "exec", lambda self: opened.append(self.windowTitle()) or 0)
    window.shortcuts.action("file.export").trigger()
    assert opened == ["Export Cells"]
