"""A source whose file moved offers Relink… over the page; the core refuses a different file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from labeler.curation import add_item_from_document
from tests.ui.curate.test_curate_view import curate
from tests.ui.gui_helpers import FIGURE_CLIP, wait_idle, write_cell_pdf


def test_relink_a_moved_source_from_the_curate_view(
    qtbot, window, dialogs, tmp_path: Path, monkeypatch
):
    other = write_cell_pdf(tmp_path / "other.pdf")
    with other.open("ab") as f:  # the same pages, other bytes: not the file items came from
        f.write(b"\n% a different file\n")
    book = write_cell_pdf(tmp_path / "book.pdf")
    project = window.session.require_project()
    wait_idle(qtbot)
    item = add_item_from_document(project, book, 2, FIGURE_CLIP, keep_source_copy=False)
    window.session.items_changed.emit()
    moved = book.rename(tmp_path / "renamed.pdf")
    view = curate(window)
    view.items.select_item(item.id)
    wait_idle(qtbot)
    assert view.relink.isVisible() and "book.pdf" in view.relink.message.text()
    assert "no copy" in view.relink.message.text()
    assert view.viewer.info is None

    # the curator picks the wrong file: refused with the core's reason, nothing changed
    chosen = [str(other)]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (chosen.pop(), ""))
    view.relink.button.click()
    assert dialogs and "bytes differ" in dialogs[-1][0]
    assert project.sources.get(item.source_id).path == str(book.resolve())
    assert view.relink.isVisible()

    chosen.append(str(moved))
    view.relink.button.click()
    wait_idle(qtbot)
    assert len(dialogs) == 1
    assert project.sources.get(item.source_id).path == str(moved.resolve())
    assert not view.relink.isVisible()
    qtbot.waitUntil(lambda: view.viewer.info is not None, timeout=10000)
    assert view.viewer.info.path == str(moved.resolve()) and view.viewer.page == 2
