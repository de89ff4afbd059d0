"""At 1024×640 Curate clips nothing: every shown button reads whole, key names are whole."""

from __future__ import annotations

from labeler.store import KeyEntry
from tests.ui.curate.test_curate_view import add_item, curate
from tests.ui.gui_helpers import clipped_buttons, resize_settled, settle
from ui.curate.key_editor import ALTERNATIVES, COLUMNS, MARKER, NAME, NOTE

LONG_NAMES = ["Smooth endoplasmic reticulum", "Periodontal ligament", "Stapes", "Epiphyseal plate"]


def test_nothing_is_clipped_at_1024_by_640(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    project.items.set_key(item_id, [KeyEntry(name) for name in LONG_NAMES])
    window.session.item_changed.emit(item_id)
    resize_settled(qtbot, window, 1024, 640)
    assert clipped_buttons(view, window) == []

    table, header = view.key.table, view.key.table.horizontalHeader()
    metrics = table.fontMetrics()
    for row, name in enumerate(LONG_NAMES):
        rect = table.visualRect(view.key.model.index(row, NAME))
        one_line = metrics.horizontalAdvance(name) <= rect.width() - 6
        wrapped = rect.height() >= 2 * metrics.height()
        assert one_line or wrapped, (name, rect.width(), rect.height())
    assert all(metrics.horizontalAdvance(n) <= header.sectionSize(NAME) for n in LONG_NAMES[1:])
    # headings shrank to short forms, whole in their columns, with the full name as tooltip
    model = view.key.model
    for column in (MARKER, ALTERNATIVES, NOTE):
        title = model.headerData(column, header.orientation())
        assert header.fontMetrics().horizontalAdvance(title) <= header.sectionSize(column)
        assert model.headerData(column, header.orientation(), 3).startswith(COLUMNS[column])

    window.resize(1600, 900)  # room again (a wide key panel): the whole headings come back
    view.splitter.setSizes([250, 500, 700])
    settle(qtbot)
    assert [model.headerData(c, header.orientation()) for c in range(4)] == list(COLUMNS)
