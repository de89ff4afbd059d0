"""Curate's key editor shows and edits a label's alternatives and note, undoably.

A real project: the item is harvested from a real PDF whose labels print a
synonym and a state ("Tympanic membrane (eardrum)", "Aorta (cut)"), shown in
the main window's Curate view; edits are typed into the table like a curator
types them and checked in the store.
"""

from __future__ import annotations

import pymupdf
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from labeler.curation import add_item_from_document
from labeler.errors import LabelerError
from labeler.store import KeyEntry, NewItem, Project
from tests.ui.gui_helpers import open_window
from ui import workers
from ui.curate.key_editor import ALTERNATIVES, NAME, NOTE


def write_ear_pdf(path):
    doc = pymupdf.open()
    page = doc.new_page(width=440, height=320)
    page.draw_circle((120, 160), 50)
    for y, text in ((110, "Tympanic membrane (eardrum)"), (210, "Aorta (cut)")):
        page.draw_line((230, y - 3), (150, 160))
        page.insert_text((235, y), text, fontsize=9)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture
def setup(qtbot, tmp_path):
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))
    folder = tmp_path / "project"
    with Project.create(folder, name="Ear") as project:
        item = add_item_from_document(
            project,
            write_ear_pdf(tmp_path / "ear.pdf"),
            1,
            (60, 90, 420, 230),
            item=NewItem(subject="ear"),
        )
    window = open_window(qtbot, folder, "curate")
    view = window.views["curate"]
    view.show_item(item.id)
    qtbot.waitUntil(lambda: not workers.busy(), timeout=15000)
    yield window, view.key, item.id
    qtbot.waitUntil(lambda: not workers.busy(), timeout=15000)


def stored(window, item_id) -> dict[str, KeyEntry]:
    return {e.name: e for e in window.session.require_project().items.key(item_id)}


def row_of(editor, name: str) -> int:
    return next(i for i, e in enumerate(editor.model.entries) if e.name == name)


def test_the_table_shows_the_split_harvest_proposed(setup):
    _, editor, _ = setup
    model = editor.model
    shown = {
        model.index(r, NAME).data(): (
            model.index(r, ALTERNATIVES).data(),
            model.index(r, NOTE).data(),
        )
        for r in range(model.rowCount())
    }
    assert shown == {"Tympanic membrane": ("eardrum", ""), "Aorta": ("", "cut")}


def test_typed_alternatives_and_notes_are_saved_and_undoable(qtbot, setup):
    window, editor, item_id = setup
    model, table = editor.model, editor.table
    index = model.index(row_of(editor, "Tympanic membrane"), ALTERNATIVES)
    table.setCurrentIndex(index)
    table.edit(index)
    field = table.focusWidget()
    field.selectAll()
    QTest.keyClicks(field, "eardrum; tympanum")
    QTest.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: stored(window, item_id)["Tympanic membrane"].alternatives == ("eardrum", "tympanum")
    )
    assert model.setData(model.index(row_of(editor, "Aorta"), NOTE), " cut  away ")
    assert stored(window, item_id)["Aorta"].note == "cut away"
    assert model.index(row_of(editor, "Aorta"), NOTE).data() == "cut away"  # shown as stored

    stack = window.session.undo_stack
    assert stack.undoText() == "Set note"
    stack.undo()
    stack.undo()
    assert stored(window, item_id)["Tympanic membrane"].alternatives == ("eardrum",)
    assert stored(window, item_id)["Aorta"].note == "cut"
    stack.redo()
    assert stored(window, item_id)["Tympanic membrane"].alternatives == ("eardrum", "tympanum")


def test_tidy_splits_a_typed_name_in_one_undoable_step(setup):
    window, editor, item_id = setup
    model = editor.model
    row = row_of(editor, "Aorta")
    assert model.setData(model.index(row, NAME), "Mitral/bicuspid valve")
    editor.select_rows([row])
    editor.tidy_rows()
    valve = stored(window, item_id)["Mitral valve"]
    assert (valve.alternatives, valve.note) == (("bicuspid valve",), "cut")
    window.session.undo_stack.undo()
    assert stored(window, item_id)["Mitral/bicuspid valve"].note == "cut"


def test_alternatives_without_a_name_are_refused_and_nothing_changes(setup):
    window, editor, item_id = setup
    model = editor.model
    before = stored(window, item_id)
    with pytest.raises(LabelerError, match="name or a marker"):
        model.setData(model.index(row_of(editor, "Aorta"), NAME), "  ")
    assert stored(window, item_id) == before
    assert window.session.undo_stack.count() == 0
