"""At 1024×640 the preview's label count and the key table's notes read whole (gui11)."""

from __future__ import annotations

from labeler.store import KeyEntry
from tests.ui.curate.test_curate_view import add_item, curate
from tests.ui.gui_helpers import resize_settled
from ui.curate.key_editor import ALTERNATIVES, NOTE

NOTE_TEXT = "membrane covering bone"


def test_the_label_count_under_the_preview_is_whole_at_1024_and_beside_the_zoom_at_1280(
    qtbot, window
):
    view = curate(window)
    add_item(qtbot, window)
    preview, label = view.preview, view.preview.method_label
    assert label.text().split(" · ")[0].endswith("labels")
    for width, height in ((1024, 640), (1280, 800)):
        resize_settled(qtbot, window, width, height)
        needed = label.fontMetrics().horizontalAdvance(label.text())
        assert label.isVisibleTo(window) and label.width() >= needed, (width, label.width())
        assert label.geometry().right() <= preview.width()
        assert not label.geometry().intersects(preview.zoom.geometry()), width
        assert not label.geometry().intersects(preview.show_boxes.geometry()), width
    # with room, the summary shares the zoom row instead of taking a line of the figure's
    assert abs(label.geometry().center().y() - preview.zoom.geometry().center().y()) < 4


def test_a_note_wraps_between_words_and_never_cuts_one_at_1024(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    entries = [
        KeyEntry("Cortical bone", alternatives=("hard bone",)),
        KeyEntry("Trabecular bone", alternatives=("spongy bone",)),
        KeyEntry("Periosteum", note=NOTE_TEXT),
        KeyEntry("Articular cartilage"),
    ]
    project.items.set_key(item_id, entries)
    window.session.item_changed.emit(item_id)
    resize_settled(qtbot, window, 1024, 640)

    table, model = view.key.table, view.key.model
    metrics = table.fontMetrics()
    for row, column, text in ((2, NOTE, NOTE_TEXT), (1, ALTERNATIVES, "spongy bone")):
        rect = table.visualRect(model.index(row, column))
        widest = max(metrics.horizontalAdvance(word) for word in text.split())
        assert rect.width() - 6 >= widest, (text, rect.width(), widest)
        assert rect.right() <= table.viewport().width(), (text, rect.right())
        if metrics.horizontalAdvance(text) > rect.width() - 6:  # wrapped: the row grew
            assert rect.height() >= 2 * metrics.height(), (text, rect.height())
