"""Drive the Curate view like a curator: pick a page, drag a region, erase, fix the key, undo."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pymupdf
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from labeler.erase.mask import Stroke
from labeler.store import KeyEntry, NewItem, NewResponse
from tests.ui.gui_helpers import FIGURE_CLIP, LABELS, wait_idle, write_cell_pdf
from ui.curate.view import PREVIEW_TAB, CurateView


def curate(window) -> CurateView:
    return window.views["curate"]


def open_page_two(qtbot, view: CurateView) -> None:
    """Pick the only source in the Sources tab, then page 2 in the thumbnail strip."""
    view.items.tabs.setCurrentIndex(1)
    view.items.sources.selectRow(0)
    qtbot.waitUntil(lambda: view.viewer.info is not None, timeout=10000)
    strip = view.viewer.thumbnails
    rect = strip.visualRect(strip.thumbs.index(1))
    QTest.mouseClick(strip.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert view.viewer.page == 2
    wait_idle(qtbot)


def drag(canvas, box) -> None:
    """Press, move and release the left button from ``box``'s top-left to its bottom-right."""
    start = canvas.mapFromScene(QPointF(box[0], box[1]))
    end = canvas.mapFromScene(QPointF(box[2], box[3]))
    viewport = canvas.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    QTest.mouseMove(viewport, (start + end) / 2)
    QTest.mouseMove(viewport, end)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def erase_figure_by_drag(qtbot, view: CurateView) -> None:
    open_page_two(qtbot, view)
    canvas = view.viewer.canvas
    canvas.set_zoom(0.9)
    canvas.centerOn(QPointF(220, 170))
    drag(canvas, FIGURE_CLIP)
    qtbot.waitUntil(lambda: view.draft is not None, timeout=15000)
    wait_idle(qtbot)


def key_names(window, item_id: str) -> list[str]:
    return [e.name for e in window.session.require_project().items.key(item_id)]


def test_drag_a_region_erases_it_and_adding_stores_the_item(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)

    draft = view.draft
    assert draft.page == 2
    assert all(abs(a - b) < 3 for a, b in zip(draft.figure.clip, FIGURE_CLIP, strict=True))
    assert {e.name for e in draft.figure.key} == set(LABELS)
    assert view.centre.currentIndex() == PREVIEW_TAB
    assert view.key.model.rowCount() == len(LABELS)
    # The question image really lost its label text; the answer image kept it.
    question = QImage.fromData(draft.figure.question_png)
    answer = QImage.fromData(draft.figure.answer_png)
    assert question.size() == answer.size() and question != answer

    # Space flips the preview between erased and original.
    view.preview.canvas.setFocus()
    QTest.keyClick(view.preview.canvas, Qt.Key.Key_Space)
    assert view.preview.showing_original and view.preview.original_button.isChecked()
    QTest.keyClick(view.preview.canvas, Qt.Key.Key_Space)
    assert not view.preview.showing_original

    # Fix the draft key before adding: rename the first label inline.
    first = view.key.model.entries[0].name
    view.key.select_rows([0])
    view.key.table.setFocus()
    QTest.keyClick(view.key.table, Qt.Key.Key_F2)
    editor = view.key.table.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, f"{first} (outer)")
    QTest.keyClick(editor, Qt.Key.Key_Return)  # Qt commits the edit on the next event turn
    qtbot.waitUntil(lambda: view.draft.figure.key[0].name == f"{first} (outer)")

    QTest.mouseClick(view.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.item is not None, timeout=15000)
    project = window.session.require_project()
    [item] = project.items.list()
    assert item.page == 2 and item.status == "draft"
    assert set(key_names(window, item.id)) == {f"{first} (outer)"} | (set(LABELS) - {first})
    assert project.assets.path(item.question_asset).is_file()
    # the list re-reads its rows on a worker; the new item is selected when they arrive
    qtbot.waitUntil(lambda: view.items.model.rowCount() == 1)
    qtbot.waitUntil(lambda: view.items.current_item_id() == item.id)

    # A new draft deselects the item; clicking the item again shows it again.
    view.centre.setCurrentIndex(0)
    drag(view.viewer.canvas, FIGURE_CLIP)
    qtbot.waitUntil(lambda: view.draft is not None, timeout=15000)
    assert view.item is None and view.items.current_item_id() is None
    row = view.items.table.visualRect(view.items.model.index(0, 0)).center()
    QTest.mouseClick(view.items.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
    assert view.item.id == item.id and view.draft is None


def add_item(qtbot, window) -> str:
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    view.add_draft()
    qtbot.waitUntil(lambda: view.item is not None, timeout=15000)
    return view.item.id


def test_key_edits_are_saved_and_undo_redo_through_the_edit_menu(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    original = key_names(window, item_id)
    undo = next(a for a in window.findChildren(type(window.add_pdf_action)) if a.text() == "&Undo")

    view.key.select_rows([0, 1])
    view.key.merge_rows()
    assert key_names(window, item_id) == [" ".join(original)]
    view.key.select_rows([0])
    view.key.split_row()  # no separators in the merged name: split at spaces
    assert key_names(window, item_id) == " ".join(original).split()
    undo.trigger()
    assert key_names(window, item_id) == [" ".join(original)]
    undo.trigger()
    assert key_names(window, item_id) == original
    assert view.key.model.rowCount() == len(original)  # the table follows the store

    view.key.add_row()
    QTest.keyClicks(view.key.table.focusWidget(), "Vacuole")
    QTest.keyClick(view.key.table.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: key_names(window, item_id) == [*original, "Vacuole"])
    view.key.select_rows([2])
    view.key.move(-1)
    assert key_names(window, item_id) == [original[0], "Vacuole", original[1]]
    view.key.select_rows([1])
    view.key.delete_rows()
    assert key_names(window, item_id) == original
    stack = window.session.undo_stack
    stack.undo()
    stack.undo()
    assert key_names(window, item_id) == [*original, "Vacuole"]
    stack.redo()
    stack.redo()
    assert key_names(window, item_id) == original


def test_marker_edit_rejects_nonsense_with_a_dialog(qtbot, window, dialogs):
    from ui.errors import install_excepthook

    install_excepthook(lambda: window)
    view = curate(window)
    item_id = add_item(qtbot, window)
    model = view.key.model
    assert model.setData(model.index(0, 1), "b)")
    assert window.session.require_project().items.key(item_id)[0].marker == "B"
    editor_index = model.index(0, 1)
    view.key.table.edit(editor_index)
    editor = view.key.table.focusWidget()
    QTest.keyClicks(editor, "xyz")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(dialogs))
    assert "a marker is one letter" in dialogs[-1][0]
    assert window.session.require_project().items.key(item_id)[0].marker == "B"


def test_item_fields_are_undoable(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    form = view.form
    form.subject.setFocus()
    form.subject.selectAll()
    QTest.keyClicks(form.subject, "animal cell")
    QTest.keyClick(form.subject, Qt.Key.Key_Return)
    combo = form.combos["status"]
    combo.setCurrentIndex(combo.findData("ready"))
    combo.activated.emit(combo.currentIndex())
    item = project.items.get(item_id)
    assert (item.subject, item.status) == ("animal cell", "ready")
    # the list re-reads its rows on a worker
    qtbot.waitUntil(lambda: [i.status for i in view.items.model.items] == ["ready"])
    window.session.undo_stack.undo()
    assert project.items.get(item_id).status == "draft"
    assert form.combos["status"].currentData() == "draft"
    window.session.undo_stack.undo()
    assert project.items.get(item_id).subject == ""
    assert form.subject.text() == ""


def test_keep_tool_re_erases_the_stored_item_and_one_undo_restores_images_and_key(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    before = project.items.get(item_id)
    key_before = project.items.key(item_id)
    view.preview.set_tool("keep")
    label = next(e for e in key_before if e.name == "Nucleus")
    canvas = view.preview.canvas
    centre = QPointF((label.bbox[0] + label.bbox[2]) / 2, (label.bbox[1] + label.bbox[3]) / 2)
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(centre))
    qtbot.waitUntil(lambda: "keep" in project.items.get(item_id).erase_edits, timeout=15000)
    wait_idle(qtbot)
    after = project.items.get(item_id)
    assert after.question_asset != before.question_asset  # "Nucleus" is printed again
    # kept printed means out of the key; the rest of the curated key is left alone
    assert project.items.key(item_id) == [e for e in key_before if e.name != "Nucleus"]
    assert view.preview.figure.edits.keep == (tuple(label.bbox),)
    window.session.undo_stack.undo()
    restored = project.items.get(item_id)
    assert restored.question_asset == before.question_asset
    assert restored.erase_edits == before.erase_edits
    assert project.items.key(item_id) == key_before
    window.session.undo_stack.redo()
    assert project.items.get(item_id).question_asset == after.question_asset
    assert "Nucleus" not in key_names(window, item_id)


def test_items_filter_by_status_and_search(qtbot, window):
    project = window.session.require_project()
    for subject, status in (("heart", "ready"), ("leaf", "draft"), ("eye", "excluded")):
        # fixed ids: the search also matches ids, and a random hex id can contain "ea"
        item = project.items.add(
            NewItem(item_id=f"it-{subject}", subject=subject, status=status, key=[KeyEntry("x")])
        )
        assert item.status == status
    window.session.items_changed.emit()
    panel = curate(window).items
    # the rows are read on a worker: wait for them, never for longer than a moment
    qtbot.waitUntil(lambda: panel.model.rowCount() == 3)
    panel.filters["status"].setCurrentIndex(panel.filters["status"].findData("ready"))
    qtbot.waitUntil(lambda: [i.subject for i in panel.model.items] == ["heart"])
    panel.filters["status"].setCurrentIndex(0)
    qtbot.waitUntil(lambda: panel.model.rowCount() == 3)
    window.shortcuts.action("curate.next_item").trigger()
    window.shortcuts.action("curate.next_item").trigger()
    assert curate(window).item.id == panel.model.items[1].id
    window.shortcuts.action("curate.previous_item").trigger()
    assert curate(window).item.id == panel.model.items[0].id
    QTest.keyClicks(panel.search, "ea")

    def two_found() -> None:  # says what it saw if it times out
        shown = [i.subject for i in panel.model.items]
        assert len(shown) == 2, (panel.search.text(), shown)

    qtbot.waitUntil(two_found, timeout=10000)
    assert {i.subject for i in panel.model.items} == {"heart", "leaf"}

    # A model answered "x" for the heart (F1 1.0) and nothing useful for the leaf (F1 0).
    ids = {i.subject: i.id for i in project.items.list()}
    for subject, names in (("heart", ["x"]), ("leaf", ["y"])):
        project.responses.record(
            NewResponse(
                item_id=ids[subject],
                model="m",
                condition="blind",
                request_hash=subject,
                status="ok",
                labels=[{"name": n} for n in names],
                parse_ok=True,
            )
        )
    window.session.responses_changed.emit()

    def shown() -> dict[str, str]:
        return {
            item.subject: panel.model.data(panel.model.index(r, 3))
            for r, item in enumerate(panel.model.items)
        }

    qtbot.waitUntil(lambda: shown() == {"heart": "1.00", "leaf": "0.00"})
    panel.score_filter.setCurrentText("F1 < 0.5")
    qtbot.waitUntil(lambda: [i.subject for i in panel.model.items] == ["leaf"])
    panel.search.clear()
    panel.score_filter.setCurrentText("No answers yet")
    qtbot.waitUntil(lambda: [i.subject for i in panel.model.items] == ["eye"])


def test_a_thousand_page_book_renders_only_visible_thumbnails(qtbot, window, tmp_path: Path):
    doc = pymupdf.open()
    for n in range(1000):
        doc.new_page(width=300, height=400).insert_text((30, 50), f"Page {n + 1}", fontsize=20)
    book = tmp_path / "book.pdf"
    doc.save(book)
    view = curate(window)
    view.add_document(str(book))
    qtbot.waitUntil(lambda: view.viewer.info is not None and view.viewer.info.path == str(book))
    wait_idle(qtbot)
    strip = view.viewer.thumbnails
    assert strip.thumbs.rowCount() == 1000
    first_batch = strip.thumbs.renders_started
    assert 0 < first_batch < 40
    strip.scrollToBottom()
    qtbot.waitUntil(lambda: strip.visible_pages()[1] == 1000)
    # The pages on screen get real pictures, not blanks …
    qtbot.waitUntil(lambda: all(strip.thumbs.is_rendered(p) for p in range(997, 1001)))
    wait_idle(qtbot)
    # … and the 900-odd pages scrolled past were never rendered.
    assert strip.thumbs.renders_started < 80
    assert not any(strip.thumbs.is_rendered(p) for p in range(100, 900))
    assert [s.page_count for s in window.session.require_project().sources.all()] == [2, 1000]


def test_bad_document_gives_a_dialog_and_changes_nothing(qtbot, window, dialogs, tmp_path: Path):
    fake = tmp_path / "notes.pdf"
    fake.write_text("just text")
    view = curate(window)
    view.add_document(str(fake))
    qtbot.waitUntil(lambda: bool(dialogs), timeout=10000)
    assert "not a PDF" in dialogs[0][0]
    assert len(window.session.require_project().sources.all()) == 1


def test_a_proposed_figure_is_drawn_and_one_click_erases_it(qtbot, window):
    view = curate(window)
    open_page_two(qtbot, view)
    canvas = view.viewer.canvas
    qtbot.waitUntil(lambda: len(canvas.proposals()) == 1, timeout=10000)
    [box] = canvas.proposals()
    assert box[0] < 60 and box[2] > 365  # the proposal covers the drawing and its labels
    centre = QPointF((box[0] + box[2]) / 2, box[1] + 8)
    canvas.centerOn(centre)
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(centre))
    qtbot.waitUntil(lambda: view.draft is not None, timeout=15000)
    assert view.viewer.region == box
    assert {e.name for e in view.draft.figure.key} == set(LABELS)


def test_a_failed_save_is_shown_and_not_left_on_the_undo_stack(qtbot, window, dialogs):
    from ui.curate.commands import KeyEdit, stored_key_setter
    from ui.errors import install_excepthook

    install_excepthook(lambda: window)
    view = curate(window)
    item_id = add_item(qtbot, window)
    stack = window.session.undo_stack
    depth = stack.count()
    before = window.session.require_project().items.key(item_id)
    bad = [KeyEntry(name="  ")]  # the store refuses an entry with neither name nor marker
    setter = stored_key_setter(window.session, view.versions, item_id)
    edit = KeyEdit(setter, before, bad, "Break the key")
    try:
        stack.push(edit)
    except Exception as exc:  # PySide re-raises a slot's exception in the caller
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert stack.count() == depth
    assert window.session.require_project().items.key(item_id) == before
    assert dialogs and "needs a name or a marker" in dialogs[-1][0]
    assert view.key.model.entries == before


def test_reject_and_add_box_tools_re_erase_the_draft(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    preview, canvas = view.preview, view.preview.canvas
    nucleus = next(e for e in view.draft.figure.key if e.name == "Nucleus")

    preview.set_tool("removed_boxes")
    centre = QPointF(
        (nucleus.bbox[0] + nucleus.bbox[2]) / 2, (nucleus.bbox[1] + nucleus.bbox[3]) / 2
    )
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(centre))
    qtbot.waitUntil(lambda: [e.name for e in view.draft.figure.key] == ["Cell wall"], timeout=15000)
    assert view.draft.figure.edits.removed_boxes == (tuple(nucleus.bbox),)
    assert view.key.model.rowCount() == 1

    preview.set_tool("extra_boxes")
    x0, y0, x1, y1 = nucleus.bbox
    drag(canvas, (x0 - 3, y0 - 3, x1 + 3, y1 + 3))
    qtbot.waitUntil(lambda: "Nucleus" in {e.name for e in view.draft.figure.key}, timeout=15000)
    [extra] = view.draft.figure.edits.extra_boxes
    assert extra[0] < x0 and extra[2] > x1


def test_undoing_an_edit_of_an_old_draft_leaves_the_new_draft_alone(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    view.key.select_rows([0])
    view.key.delete_rows()
    assert len(view.draft.figure.key) == len(LABELS) - 1
    first = view.draft.serial
    view.centre.setCurrentIndex(0)
    drag(view.viewer.canvas, FIGURE_CLIP)  # erase the region again: a new draft
    qtbot.waitUntil(lambda: view.draft.serial != first, timeout=15000)
    fresh = view.draft.figure.key
    assert len(fresh) == len(LABELS)
    window.session.undo_stack.undo()  # the deletion belonged to the old draft
    assert view.draft.figure.key == fresh
    assert view.key.model.entries == list(fresh)


def test_an_item_whose_source_moved_still_opens_without_a_dialog(
    qtbot, window, dialogs, tmp_path: Path
):
    from labeler.curation import add_item_from_document

    other = write_cell_pdf(tmp_path / "other.pdf")  # never opened by the viewer
    project = window.session.require_project()
    wait_idle(qtbot)
    item = add_item_from_document(project, other, 2, FIGURE_CLIP, keep_source_copy=False)
    window.session.items_changed.emit()
    other.rename(tmp_path / "moved.pdf")
    messages: list[str] = []
    window.session.status_message.connect(messages.append)
    view = curate(window)
    view.items.select_item(item.id)
    qtbot.waitUntil(lambda: any("Source page not shown" in m for m in messages), timeout=10000)
    wait_idle(qtbot)
    assert dialogs == []
    assert view.item.id == item.id and view.preview.figure is not None
    assert view.viewer.info is None


def test_an_item_whose_source_was_deleted_opens_its_page_from_the_project_copy(
    qtbot, window, dialogs, tmp_path: Path
):
    from labeler.curation import add_item_from_document

    other = write_cell_pdf(tmp_path / "other.pdf")
    project = window.session.require_project()
    wait_idle(qtbot)
    item = add_item_from_document(project, other, 2, FIGURE_CLIP)
    window.session.items_changed.emit()
    other.unlink()
    view = curate(window)
    view.items.select_item(item.id)
    qtbot.waitUntil(lambda: view.viewer.info is not None, timeout=10000)
    wait_idle(qtbot)
    assert dialogs == []
    assert view.viewer.page == 2
    assert str(project.assets.root) in str(view.viewer.info.path)


def paint(canvas, points) -> None:
    """Press, move through ``points`` (page points) and release: one brush stroke."""
    viewport = canvas.viewport()
    at = [canvas.mapFromScene(QPointF(*p)) for p in points]
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at[0])
    for pos in at[1:]:
        QTest.mouseMove(viewport, pos)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at[-1])


def question_pixels(project, item_id: str, box) -> np.ndarray:
    """The stored question image's pixels inside ``box`` (page points)."""
    item = project.items.get(item_id)
    image = QImage.fromData(project.assets.read(item.question_asset)).convertToFormat(
        QImage.Format.Format_RGB888
    )
    rgb = (
        np.frombuffer(image.constBits(), np.uint8)
        .reshape(image.height(), image.bytesPerLine())[:, : image.width() * 3]
        .reshape(image.height(), image.width(), 3)
    )
    z = item.dpi / 72
    x0, y0 = item.clip[0], item.clip[1]
    return rgb[
        round((box[1] - y0) * z) : round((box[3] - y0) * z),
        round((box[0] - x0) * z) : round((box[2] - x0) * z),
    ].copy()


def test_paint_tool_erases_under_the_stroke_and_undo_restores_it(qtbot, window):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    before = project.items.get(item_id)
    preview, canvas = view.preview, view.preview.canvas
    # the "Cell wall" leader line crosses x = 300 at y ≈ 111: paint across it
    under, away = (298.5, 108.0, 301.5, 115.0), (150.0, 95.0, 280.0, 240.0)
    assert (question_pixels(project, item_id, under).min(axis=2) < 120).any()
    untouched = question_pixels(project, item_id, away)

    preview.set_tool("mask_strokes")
    assert preview.brush_row.isVisible() and not preview.clear_mask_action.isEnabled()
    preview.brush.setValue(5)
    preview.larger_action.trigger()
    assert preview.brush.value() == 6
    assert [a.shortcut().toString() for a in (preview.smaller_action, preview.larger_action)] == [
        "[",
        "]",
    ]
    paint(canvas, [(300, 103), (300, 108), (300, 113), (300, 119)])
    qtbot.waitUntil(lambda: "mask_strokes" in project.items.get(item_id).erase_edits, timeout=15000)
    wait_idle(qtbot)
    [stroke] = project.items.get(item_id).erase_edits["mask_strokes"]
    assert stroke["width"] == 6
    assert abs(stroke["points"][0][1] - 103) < 1.5 and abs(stroke["points"][-1][1] - 119) < 1.5
    assert (question_pixels(project, item_id, under) == 255).all()  # the line is gone there
    assert np.array_equal(question_pixels(project, item_id, away), untouched)
    assert preview.figure.edits.mask_strokes == (Stroke.from_json(stroke),)
    assert preview.clear_mask_action.isEnabled()

    window.session.undo_stack.undo()
    restored = project.items.get(item_id)
    assert restored.question_asset == before.question_asset
    assert restored.erase_edits == before.erase_edits
    assert preview.figure.edits.mask_strokes == ()
    window.session.undo_stack.redo()
    painted = project.items.get(item_id)
    assert "mask_strokes" in painted.erase_edits

    preview.clear_mask_action.trigger()  # undoable too: the images come back exactly
    qtbot.waitUntil(
        lambda: "mask_strokes" not in project.items.get(item_id).erase_edits, timeout=15000
    )
    wait_idle(qtbot)
    assert project.items.get(item_id).question_asset == before.question_asset
    window.session.undo_stack.undo()
    assert project.items.get(item_id).question_asset == painted.question_asset


def test_strokes_over_blank_paper_are_kept_and_drafts_take_strokes_too(qtbot, window):
    view = curate(window)
    erase_figure_by_drag(qtbot, view)
    preview = view.preview
    preview.set_tool("mask_strokes")
    draft_before = view.draft.figure.question_png
    paint(preview.canvas, [(298, 104), (302, 119)])  # across the "Cell wall" leader line
    qtbot.waitUntil(lambda: len(view.draft.figure.edits.mask_strokes) == 1, timeout=15000)
    assert view.draft.figure.question_png != draft_before
    assert view.draft.figure.method.endswith("+mask")

    view.add_draft()
    qtbot.waitUntil(lambda: view.item is not None, timeout=15000)
    wait_idle(qtbot)
    item_id, project = view.item.id, window.session.require_project()
    assert len(project.items.get(item_id).erase_edits["mask_strokes"]) == 1  # the draft's stroke
    before = project.items.get(item_id).question_asset
    paint(preview.canvas, [(60, 200), (70, 205)])  # blank paper: the images stay the same
    qtbot.waitUntil(
        lambda: len(project.items.get(item_id).erase_edits["mask_strokes"]) == 2, timeout=15000
    )
    wait_idle(qtbot)
    assert project.items.get(item_id).question_asset == before
    paint(preview.canvas, [(60, 230), (70, 235)])
    qtbot.waitUntil(
        lambda: len(project.items.get(item_id).erase_edits["mask_strokes"]) == 3, timeout=15000
    )
