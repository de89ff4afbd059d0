"""Two editors on one item: the Curate view's stale edit is refused and reported, never written.

The other editor is real: a second connection to the project (another curator's window) or a
child process running ``python -m labeler items edit-key``. The view holds the item at the
version it loaded; its next edit (field, key, undo, re-erase) must write nothing and ask
Reload / Keep editing, while edits of another item, and of the same item after Reload, work.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from labeler.store import KeyEntry, NewItem, Project
from tests.ui.curate import test_curate_view
from tests.ui.curate.test_curate_view import curate
from tests.ui.gui_helpers import wait_idle
from ui import errors
from ui.curate.versions import KEEP_EDITING, RELOAD
from ui.curate.view import CurateView

ROOT = Path(__file__).resolve().parents[3]


class Conflicts:
    """The conflict dialogs shown, answered with ``answer`` (Keep editing until told)."""

    def __init__(self) -> None:
        self.shown: list[str] = []
        self.answer = KEEP_EDITING

    def exec(self, box: QMessageBox) -> int:
        self.shown.append(box.text())
        choice = next((b for b in box.buttons() if b.text() == self.answer), None)
        if choice is not None:
            choice.click()
        return 0


@pytest.fixture
def conflicts(monkeypatch: pytest.MonkeyPatch, private_settings: Path) -> Conflicts:
    record = Conflicts()
    errors.set_interactive(True)
    monkeypatch.setattr(QMessageBox, "exec", lambda box: record.exec(box))
    return record


def stored(qtbot, window, subject: str) -> str:
    """An item stored in the open project (no figure: fields and key are what is edited),
    once the items list (read on a worker) shows it."""
    project = window.session.require_project()
    item = project.items.add(
        NewItem(subject=subject, key=[KeyEntry("Nucleus"), KeyEntry("Cell wall")])
    )
    window.session.items_changed.emit()
    model = curate(window).items.model
    qtbot.waitUntil(lambda: model.row_of(item.id) >= 0)
    wait_idle(qtbot)
    return item.id


def add_item(qtbot, window) -> str:
    """An item erased from the test PDF and added, once the list has selected it (that
    selection reads the item: another editor's write must come after it)."""
    item_id = test_curate_view.add_item(qtbot, window)
    qtbot.waitUntil(lambda: curate(window).items.current_item_id() == item_id)
    wait_idle(qtbot)
    return item_id


def choose(view, item_id: str) -> None:
    """Click the item in the list, as a curator does: the view reads it."""
    view.items.select_item(item_id)
    assert view.item is not None and view.item.id == item_id


def open_stored(qtbot, window, subject: str = "plant cell") -> tuple[CurateView, str]:
    """Curate with a freshly :func:`stored` item chosen: where every edit-conflict test starts."""
    view = curate(window)
    item_id = stored(qtbot, window, subject)
    choose(view, item_id)
    return view, item_id


def type_subject(view, text: str) -> None:
    form = view.form
    form.subject.setFocus()
    form.subject.selectAll()
    QTest.keyClicks(form.subject, text)
    QTest.keyClick(form.subject, Qt.Key.Key_Return)


def edit_key_in_child(folder: Path, item_id: str, entry: str, name: str) -> None:
    """Another program renames a key entry: ``python -m labeler items edit-key``."""
    command = ["items", "edit-key", str(folder), item_id, entry, "--name", name]
    done = subprocess.run(
        [sys.executable, "-m", "labeler", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_a_field_edit_after_another_program_edited_the_key_is_refused_until_reload(
    qtbot, window, project_dir, conflicts
):
    view, item_id = open_stored(qtbot, window)
    project = window.session.require_project()
    depth = window.session.undo_stack.count()

    edit_key_in_child(project_dir, item_id, "1", "Nucleolus")
    type_subject(view, "animal cell")
    qtbot.waitUntil(lambda: len(conflicts.shown) == 1)
    assert f"Someone else changed item {item_id}" in conflicts.shown[0]
    now = project.items.get(item_id)
    assert now.subject == "plant cell"  # nothing written …
    assert [e.name for e in project.items.key(item_id)] == [
        "Nucleolus",
        "Cell wall",
    ]  # … theirs kept
    assert window.session.undo_stack.count() == depth  # the refused edit is not undoable

    # Keep editing: the screen stays, and the next edit is refused the same way
    combo = view.form.combos["tier"]
    combo.setCurrentIndex(combo.findData("core"))
    combo.activated.emit(combo.currentIndex())
    qtbot.waitUntil(lambda: len(conflicts.shown) == 2)
    assert project.items.get(item_id) == now

    # Reload shows their key; the same edit then saves and can be undone and redone
    conflicts.answer = RELOAD
    type_subject(view, "animal cell")
    qtbot.waitUntil(lambda: len(conflicts.shown) == 3)
    qtbot.waitUntil(lambda: view.key.model.entries[0].name == "Nucleolus")
    assert view.form.subject.text() == "plant cell"
    type_subject(view, "animal cell")
    wait_idle(qtbot)
    assert project.items.get(item_id).subject == "animal cell"
    assert project.items.get(item_id).version == now.version + 1
    window.session.undo_stack.undo()
    assert project.items.get(item_id).subject == "plant cell"
    window.session.undo_stack.redo()
    assert project.items.get(item_id).subject == "animal cell"
    assert len(conflicts.shown) == 3


def test_a_key_edit_is_refused_but_another_item_still_saves(qtbot, window, project_dir, conflicts):
    view = curate(window)
    first, second = stored(qtbot, window, "plant cell"), stored(qtbot, window, "leaf")
    project = window.session.require_project()
    choose(view, first)
    with Project.open(project_dir) as other:  # another curator's connection
        other.items.update(first, notes="checked by Ana", expected_version=1)

    model = view.key.model
    assert model.setData(model.index(0, 0), "Nucleolus")
    qtbot.waitUntil(lambda: len(conflicts.shown) == 1)
    assert [e.name for e in project.items.key(first)] == ["Nucleus", "Cell wall"]
    assert project.items.get(first).notes == "checked by Ana"
    assert [e.name for e in model.entries] == ["Nucleus", "Cell wall"]  # shows what is stored

    choose(view, second)  # nobody else touched this one
    assert model.setData(model.index(1, 0), "Cell membrane")
    type_subject(view, "oak leaf")
    wait_idle(qtbot)
    assert [e.name for e in project.items.key(second)] == ["Nucleus", "Cell membrane"]
    assert project.items.get(second).subject == "oak leaf"
    assert len(conflicts.shown) == 1


def test_undo_after_someone_else_wrote_is_refused_and_dropped(
    qtbot, window, project_dir, conflicts
):
    view, item_id = open_stored(qtbot, window)
    project = window.session.require_project()
    stack = window.session.undo_stack
    type_subject(view, "animal cell")
    model = view.key.model
    assert model.setData(model.index(0, 0), "Nucleolus")
    assert project.items.get(item_id).version == 3  # stored at 1, two own writes
    depth = stack.count()

    with Project.open(project_dir) as other:
        other.items.set_key(item_id, [KeyEntry("Vacuole")], expected_version=3)
    stack.undo()  # would put back "Nucleus" over their key
    qtbot.waitUntil(lambda: len(conflicts.shown) == 1)
    assert [e.name for e in project.items.key(item_id)] == ["Vacuole"]
    assert stack.count() == depth - 1  # the refused undo is gone, not waiting to be retried
    stack.undo()  # the subject edit: refused too until the curator reloads
    qtbot.waitUntil(lambda: len(conflicts.shown) == 2)
    assert project.items.get(item_id).subject == "animal cell"


def test_a_re_erase_of_a_stale_item_stores_no_images(qtbot, window, project_dir, conflicts):
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    before = project.items.get(item_id)
    depth = window.session.undo_stack.count()
    with Project.open(project_dir) as other:
        other.items.update(item_id, subject="plant cell", expected_version=before.version)

    figure = view.preview.figure
    keep = next(e for e in project.items.key(item_id) if e.name == "Nucleus").bbox
    view.erase_again(figure.with_edit("keep", keep, True))
    qtbot.waitUntil(lambda: len(conflicts.shown) == 1, timeout=15000)
    wait_idle(qtbot)
    after = project.items.get(item_id)
    assert (after.question_asset, after.erase_edits) == (before.question_asset, before.erase_edits)
    assert after.subject == "plant cell"
    assert window.session.undo_stack.count() == depth


def test_an_own_edit_made_while_re_erasing_is_no_conflict(
    qtbot, window, conflicts, monkeypatch: pytest.MonkeyPatch
):
    from ui.curate import documents

    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    before = project.items.get(item_id)
    started, proceed, versions = threading.Event(), threading.Event(), []
    real = documents.reerase_item

    def gated(*args):  # the real re-erase, held at its start until the curator has typed
        versions.append(args[4])
        started.set()
        proceed.wait(20)
        return real(*args)

    monkeypatch.setattr(documents, "reerase_item", gated)
    keep = next(e for e in project.items.key(item_id) if e.name == "Nucleus").bbox
    view.erase_again(view.preview.figure.with_edit("keep", keep, True))
    assert started.wait(20)
    type_subject(view, "plant cell")  # this window writes the item while it is erasing
    proceed.set()
    qtbot.waitUntil(lambda: "keep" in project.items.get(item_id).erase_edits, timeout=20000)
    wait_idle(qtbot)
    assert versions == [before.version, before.version + 1]  # erased again from its own edit
    after = project.items.get(item_id)
    assert after.subject == "plant cell" and after.question_asset != before.question_asset
    assert conflicts.shown == []
