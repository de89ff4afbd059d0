"""Fitting the items list's rows reads the wrapped column of the rows on screen, nothing more.

The end of a run re-reads the list, and every reload fits the visible rows again:
``QTableView.sizeHintForRow`` asked every cell of a row for every role (~60 model calls a
row), the largest share of the list's GUI-thread work at that moment. Only the subject
column wraps; the others hold one line, which the row's height already fits.
"""

from __future__ import annotations

from tests.ui.factory import build_project
from ui.curate.items_panel import ItemsPanel
from ui.session import Session


def _panel(qtbot, tmp_path) -> tuple[Session, ItemsPanel]:
    """A session and an items panel (not yet shown, no project yet) over 300 items."""
    build_project(tmp_path / "p", n_items=300, models=["lab/a"], images=False).close()
    session = Session()
    panel = ItemsPanel(session)
    qtbot.addWidget(panel)
    panel.resize(420, 700)
    return session, panel


def test_a_row_fit_reads_only_the_wrapped_column_of_the_visible_rows(qtbot, tmp_path):
    session, panel = _panel(qtbot, tmp_path)
    session.open(tmp_path / "p")
    panel.show()
    qtbot.waitUntil(lambda: not panel.loading and panel.model.rowCount() == 300, timeout=30_000)
    table, model = panel.table, panel.model
    read: list[tuple[int, int]] = []
    data = model.data

    def counting(index, role=0):
        read.append((index.row(), index.column()))
        return data(index, role)

    model.data = counting
    table.setRowHeight(0, 5)  # a row on screen that no longer fits: the fit must mend it
    panel.row_fit.fit()
    model.data = data
    first, last = table.rowAt(0), table.rowAt(table.viewport().height() - 1)
    assert read, "the visible rows were measured"
    assert {column for _, column in read} == {0}, "only the subject column wraps"
    assert {row for row, _ in read} <= set(range(first, last + 1)), "only rows on screen"
    assert table.rowHeight(0) >= table.verticalHeader().defaultSectionSize()
    session.close()


def test_a_list_behind_another_view_fits_no_rows_until_it_is_shown(qtbot, tmp_path):
    session, panel = _panel(qtbot, tmp_path)
    measured: list[int] = []
    hint = panel.row_fit.delegate.sizeHint

    def counting(option, index):
        measured.append(index.row())
        return hint(option, index)

    panel.row_fit.delegate.sizeHint = counting
    session.open(tmp_path / "p")  # the panel is never shown: Review, say, is on screen
    qtbot.waitUntil(lambda: not panel.loading and panel.model.rowCount() == 300, timeout=30_000)
    panel.row_fit.fit()
    qtbot.wait(50)
    assert measured == [], "a hidden list measures nothing"
    panel.show()
    qtbot.waitUntil(lambda: bool(measured), timeout=5_000)
    visible = panel.table.viewport().height() // panel.table.verticalHeader().defaultSectionSize()
    assert 0 < len(set(measured)) <= visible + 2, "only the rows the viewport can hold"
    session.close()
