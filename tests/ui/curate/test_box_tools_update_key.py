"""In Curate, rejecting or adding a box changes the key too, undoably; a rejected box looks it."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsRectItem

from tests.ui.curate.test_curate_view import add_item, curate, drag, erase_figure_by_drag
from tests.ui.gui_helpers import LABELS, wait_idle
from ui.theme import OVERLAY


def click_box(canvas, box) -> None:
    centre = QPointF((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(centre))


def items_on(canvas, box, kind):
    """Overlay items of ``kind`` whose bounds lie within ``box`` grown by a point."""
    x0, y0, x1, y1 = box
    found = []
    for item in canvas.scene().items():
        if not isinstance(item, kind):
            continue
        r = item.sceneBoundingRect()
        if (
            r.left() >= x0 - 1
            and r.right() <= x1 + 1
            and r.top() >= y0 - 1
            and r.bottom() <= y1 + 1
        ):
            found.append(item)
    return found


def test_rejecting_a_stored_items_box_drops_its_entry_and_one_undo_brings_both_back(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    key_before = project.items.key(item_id)
    images_before = project.items.get(item_id).question_asset
    nucleus = next(e for e in key_before if e.name == "Nucleus")

    view.preview.set_tool("removed_boxes")
    click_box(view.preview.canvas, nucleus.bbox)
    qtbot.waitUntil(
        lambda: "removed_boxes" in project.items.get(item_id).erase_edits, timeout=15000
    )
    wait_idle(qtbot)
    assert [e.name for e in project.items.key(item_id)] == ["Cell wall"]
    assert [e.name for e in view.key.model.entries] == ["Cell wall"]
    assert project.items.get(item_id).question_asset != images_before  # printed again

    # the rejected box is drawn grey, dashed and struck through; no live (pink) box is left there
    rects = items_on(view.preview.canvas, nucleus.bbox, QGraphicsRectItem)
    colours = {r.pen().color().name() for r in rects}
    assert OVERLAY["removed"].name() in colours and OVERLAY["label"].name() not in colours
    grey = [r for r in rects if r.pen().color() == OVERLAY["removed"]]
    assert all(r.pen().style() == Qt.PenStyle.DashLine for r in grey)
    strikes = items_on(view.preview.canvas, nucleus.bbox, QGraphicsLineItem)
    assert len(strikes) == 2 and all(s.pen().color() == OVERLAY["removed"] for s in strikes)

    stack = window.session.undo_stack
    assert stack.undoText() == "Edit boxes"
    stack.undo()  # one step: images and key together
    assert project.items.key(item_id) == key_before
    assert project.items.get(item_id).question_asset == images_before
    assert {e.name for e in view.key.model.entries} == set(LABELS)
    stack.redo()
    assert [e.name for e in project.items.key(item_id)] == ["Cell wall"]


def test_an_added_box_on_a_draft_becomes_an_editable_entry_and_undo_removes_it(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    preview, canvas = view.preview, view.preview.canvas
    nucleus = next(e for e in view.draft.figure.key if e.name == "Nucleus")
    # the curator fixes a name first: box edits must not undo that
    row = [e.name for e in view.key.model.entries].index("Cell wall")
    view.key.model.setData(view.key.model.index(row, 0), "Plant cell wall")
    assert "Plant cell wall" in {e.name for e in view.draft.figure.key}

    preview.set_tool("removed_boxes")
    click_box(canvas, nucleus.bbox)
    qtbot.waitUntil(lambda: "Nucleus" not in {e.name for e in view.draft.figure.key}, timeout=15000)
    wait_idle(qtbot)
    curated = list(view.draft.figure.key)
    assert [e.name for e in curated] == ["Plant cell wall"]

    preview.set_tool("extra_boxes")
    x0, y0, x1, y1 = nucleus.bbox
    drag(canvas, (x0 - 3, y0 - 3, x1 + 3, y1 + 3))
    qtbot.waitUntil(lambda: "Nucleus" in {e.name for e in view.draft.figure.key}, timeout=15000)
    wait_idle(qtbot)
    assert view.draft.figure.key[0] == curated[0]  # the fixed row is as the curator left it
    assert "Nucleus" in {e.name for e in view.key.model.entries}

    window.session.undo_stack.undo()  # the key change of the add
    assert "Nucleus" not in {e.name for e in view.draft.figure.key}
