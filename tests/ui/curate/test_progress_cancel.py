"""Long Curate operations show progress and stop on Cancel, leaving nothing half-done."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.ui.curate.test_curate_view import curate, erase_figure_by_drag
from tests.ui.gui_helpers import wait_idle
from ui.curate.scan_dialog import ScanDialog


def test_cancelling_add_item_stores_nothing_and_keeps_the_draft(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    project = window.session.require_project()
    view.add_draft()
    assert view.progress.isVisible() and view.progress.cancel_button.isEnabled()
    assert "Adding item" in view.progress.toolTip()
    view.progress.cancel_button.click()
    assert not view.progress.cancel_button.isEnabled()
    wait_idle(qtbot)
    assert project.items.list() == []
    assert view.draft is not None and view.item is None  # the curator can add it again
    assert not view.progress.isVisible()

    view.add_draft()  # and without Cancel it goes in
    qtbot.waitUntil(lambda: view.item is not None, timeout=15000)
    wait_idle(qtbot)
    assert len(project.items.list()) == 1 and not view.progress.isVisible()


def test_cancelling_the_read_back_before_ready_keeps_the_status(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    view.add_draft()
    qtbot.waitUntil(lambda: view.item is not None, timeout=15000)
    wait_idle(qtbot)
    project = window.session.require_project()
    item = view.item
    # a new question (here: the printed figure itself) has not been read back yet
    answer = project.assets.read(item.answer_asset)
    project.items.set_images(
        item.id,
        question_png=answer,
        answer_png=answer,
        question_pdf=None,
        erase_method=item.erase_method,
        erase_edits=item.erase_edits,
    )
    window.session.item_changed.emit(item.id)
    combo = view.form.combos["status"]
    combo.setCurrentIndex(combo.findData("ready"))
    combo.activated.emit(combo.currentIndex())
    panel = view.form.check_progress
    assert panel.isVisible() and "Reading the question back" in panel.toolTip()
    panel.cancel_button.click()
    wait_idle(qtbot)
    assert project.items.get(item.id).status == "draft"
    assert combo.currentData() == "draft" and not panel.isVisible()


PAGES = 120


def test_a_long_scan_fills_the_bar_and_stops_on_cancel(qtbot, window, tmp_path: Path, monkeypatch):
    import threading

    import ui.curate.scan_dialog as scan_dialog

    path = tmp_path / "long.pdf"
    doc = pymupdf.open()
    for number in range(1, PAGES + 1):
        doc.new_page().insert_text((72, 72), f"Chapter {number}. Body text only.")
    doc.save(path)
    doc.close()
    first_page, go_on = threading.Event(), threading.Event()
    real = scan_dialog.scan_document

    def held_after_page_one(path, password=None, on_page=None):  # a slow book, on any machine
        def page(done: int, total: int) -> None:
            on_page(done, total)
            if done == 1:
                first_page.set()
                go_on.wait(20)

        return real(path, password=password, on_page=page)

    monkeypatch.setattr(scan_dialog, "scan_document", held_after_page_one)
    dialog = ScanDialog(window.session, str(path), None, window)
    qtbot.addWidget(dialog)
    dialog.show()
    panel = dialog.progress
    try:
        qtbot.waitUntil(first_page.is_set, timeout=10000)
        qtbot.waitUntil(lambda: panel.bar.maximum() == PAGES and panel.bar.value() >= 1)
        panel.cancel_button.click()
    finally:
        go_on.set()
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=10000)
    wait_idle(qtbot)
    assert dialog.summary.text() == "Scan cancelled."
    assert dialog.found == [] and not dialog.add_button.isEnabled()
    assert panel.bar.value() < PAGES and not panel.isVisible()
