"""Curate's Slots tab: the slot image rendered off the GUI thread, the order edited by the
curator (move, drop, back to reading order), every edit undoable."""

from __future__ import annotations

import pytest

from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.samples.book import layout
from labeler.slots import reading_order, slot_order
from labeler.store import NewItem, Project
from ui.curate.slots_panel import SlotsPanel

HEART = next(f for f in layout() if f.spec.subject == "human heart")


@pytest.fixture
def panel(tmp_path, qtbot, session):
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(
            project, data_file(SAMPLE_BOOK), HEART.page, HEART.clip, item=NewItem(subject="heart")
        )
    session.open(tmp_path / "p")
    widget = SlotsPanel(session)
    qtbot.addWidget(widget)
    widget.show()
    widget.show_item(item.id)
    qtbot.waitUntil(lambda: widget.question is not None, timeout=20_000)
    return widget


def test_the_slot_image_arrives_and_the_list_is_the_reading_order(panel, session):
    project = session.project
    entries = project.items.key(panel.item_id)
    assert panel.current_order() == reading_order(entries)
    assert panel.question.marks == ("1", "2", "3", "4", "5", "6")
    assert panel.order.item(0).text() == "1. Aorta"


def test_move_drop_reset_and_undo(panel, session, qtbot):
    project, item_id = session.project, panel.item_id
    default = slot_order(project, item_id)
    panel.order.setCurrentRow(0)
    panel.down.click()
    moved = [default[1], default[0], *default[2:]]
    assert slot_order(project, item_id) == moved
    assert panel.current_order() == moved  # the list follows the stored order
    panel.order.setCurrentRow(5)
    panel.drop.click()
    assert slot_order(project, item_id) == moved[:5]
    assert panel.order.item(5).text().startswith("dropped: ")
    session.undo_stack.undo()
    assert slot_order(project, item_id) == moved
    session.undo_stack.undo()
    assert slot_order(project, item_id) == default
    session.undo_stack.redo()
    panel.reset.click()
    assert slot_order(project, item_id) == default
    session.undo_stack.undo()
    assert slot_order(project, item_id) == moved
