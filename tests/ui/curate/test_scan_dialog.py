"""Curate ▸ File ▸ Scan document: the open document's labelled figures, ticked, added in bulk."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.curate.test_curate_view import curate, open_page_two
from tests.ui.gui_helpers import LABELS, wait_idle


def test_scan_lists_the_figure_and_adds_the_ticked_ones_once(qtbot, window, dialogs):
    view = curate(window)
    open_page_two(qtbot, view)
    dialog = view.scan_document()
    qtbot.waitUntil(lambda: dialog.add_button.isEnabled(), timeout=20000)
    assert [c.page for c in dialog.found] == [2]  # page 1 is a heading only
    assert dialog.found[0].labels == len(LABELS) and dialog.found[0].with_leaders == len(LABELS)
    assert dialog.table.item(0, 3).text() == "Figure 1. A cell."
    assert dialog.progress.bar.value() == dialog.progress.bar.maximum() == 2
    assert not dialog.progress.isVisible()  # the scan ended: the panel is gone
    dialog.add_button.click()
    qtbot.waitUntil(lambda: bool(dialog.outcomes), timeout=20000)
    wait_idle(qtbot)
    project = window.session.require_project()
    items = project.items.list()
    assert len(items) == 1 and items[0].page == 2
    assert sorted(e.name for e in project.items.key(items[0].id)) == sorted(LABELS)
    assert "1 added" in dialog.summary.text()
    qtbot.waitUntil(lambda: view.items.model.rowCount() == 1, timeout=5000)
    # the same figure again is recognised, and an unticked row is left out
    dialog.add_button.setEnabled(True)
    dialog.add_button.click()
    qtbot.waitUntil(
        lambda: "already items" in dialog.summary.text() and "1 already" in dialog.summary.text(),
        timeout=20000,
    )
    dialog.table.item(0, 0).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.ticked() == []
    dialog.reject()
    assert dialogs == []
    assert len(project.items.list()) == 1
