"""Curate shows, under the item's heading, what is wrong with it: damage and readable key text."""

from __future__ import annotations

from labeler.curation import add_item_from_document
from labeler.store import KeyEntry
from tests.paths import EXTERNAL_FIGURES
from tests.ui.gui_helpers import add_item_keeping_a_label, wait_idle


def test_an_svg_drawn_with_flat_gradients_is_flagged_in_the_heading(qtbot, window):
    project = window.session.require_project()
    item = add_item_from_document(project, EXTERNAL_FIGURES / "bone-cross-section.svg", 1)
    window.session.items_changed.emit()
    view = window.views["curate"]
    view.items.select_item(item.id)
    wait_idle(qtbot)
    assert "gradient fill(s) are drawn as flat colours" in view.heading.text()


def test_readable_key_text_is_flagged_in_the_heading(qtbot, window, tmp_path):
    project = window.session.require_project()
    item, label = add_item_keeping_a_label(project, tmp_path)
    project.items.set_key(item.id, [KeyEntry(label.name)])
    from labeler.readiness import check_residual_labels

    check_residual_labels(project, item.id)
    window.session.items_changed.emit()
    view = window.views["curate"]
    view.items.select_item(item.id)
    wait_idle(qtbot)
    assert f"key text still readable in the question: {label.name}" in view.heading.text()
