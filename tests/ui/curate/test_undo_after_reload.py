"""After Reload, an old undo step must not write over what another editor did.

Reload makes the window hold the item's new version, so the version check alone would let an
undo step recorded before it put back an old key or field over the other editor's. Each step
therefore checks that the part it writes still holds what the step left; the other editor here
is real: a child process running ``python -m labeler items edit-key``, or a second connection.
"""

from __future__ import annotations

from labeler.store import KeyEntry, Project
from tests.ui.curate.test_curate_view import curate
from tests.ui.curate.test_edit_conflict import (
    add_item,
    conflicts,  # noqa: F401  (a fixture)
    edit_key_in_child,
    open_stored,
    type_subject,
)
from tests.ui.gui_helpers import wait_idle
from ui.curate.versions import RELOAD


def names(project: Project, item_id: str) -> list[str]:
    return [e.name for e in project.items.key(item_id)]


def rename_first_label(qtbot, view, name: str) -> None:
    model = view.key.model
    assert model.setData(model.index(0, 0), name)
    wait_idle(qtbot)


def reload_after_refused_edit(qtbot, view, conflicts, text: str) -> None:  # noqa: F811
    """An edit made after the other editor's write is refused; the curator chooses Reload."""
    conflicts.answer = RELOAD
    shown = len(conflicts.shown)
    type_subject(view, text)
    qtbot.waitUntil(lambda: len(conflicts.shown) == shown + 1)
    assert "Someone else changed item" in conflicts.shown[-1]
    wait_idle(qtbot)


def test_undo_of_a_key_edit_after_reload_does_not_overwrite_another_programs_key(
    qtbot,
    window,
    project_dir,
    conflicts,  # noqa: F811
):
    view, item_id = open_stored(qtbot, window)
    project = window.session.require_project()
    stack = window.session.undo_stack
    rename_first_label(qtbot, view, "Nucleolus")  # Nucleus -> Nucleolus, undoable
    depth = stack.count()

    edit_key_in_child(project_dir, item_id, "2", "Cell membrane")  # another program
    reload_after_refused_edit(qtbot, view, conflicts, "animal cell")
    assert [e.name for e in view.key.model.entries] == ["Nucleolus", "Cell membrane"]
    version = project.items.get(item_id).version

    stack.undo()  # the version matches (reloaded), but the key is not what the step left
    qtbot.waitUntil(lambda: len(conflicts.shown) == 2)
    message = conflicts.shown[-1]
    assert message.startswith("Cannot undo “Rename label”")
    assert f"item {item_id}'s key changed elsewhere" in message
    assert "now Nucleolus, Cell membrane; this step left Nucleolus, Cell wall" in message
    assert names(project, item_id) == ["Nucleolus", "Cell membrane"]  # theirs kept
    assert project.items.get(item_id).version == version  # nothing written
    assert stack.count() == depth - 1  # the stale step is dropped, not retried

    # edits made after the Reload still save and undo
    rename_first_label(qtbot, view, "Nucleus")
    assert names(project, item_id) == ["Nucleus", "Cell membrane"]
    stack.undo()
    assert names(project, item_id) == ["Nucleolus", "Cell membrane"]
    assert len(conflicts.shown) == 2


def test_undo_after_reload_still_works_where_the_other_editor_changed_another_part(
    qtbot,
    window,
    project_dir,
    conflicts,  # noqa: F811
):
    view, item_id = open_stored(qtbot, window)
    project = window.session.require_project()
    stack = window.session.undo_stack
    rename_first_label(qtbot, view, "Nucleolus")
    held = project.items.get(item_id).version
    with Project.open(project_dir) as other:  # another curator writes only the notes
        other.items.update(item_id, notes="checked by Ana", expected_version=held)
    reload_after_refused_edit(qtbot, view, conflicts, "animal cell")

    stack.undo()  # the key is exactly what the step left: the undo applies
    wait_idle(qtbot)
    assert names(project, item_id) == ["Nucleus", "Cell wall"]
    assert project.items.get(item_id).notes == "checked by Ana"
    stack.redo()
    assert names(project, item_id) == ["Nucleolus", "Cell wall"]
    assert len(conflicts.shown) == 1  # only the refused subject edit


def test_redo_after_reload_is_checked_too(qtbot, window, project_dir, conflicts):  # noqa: F811
    view, item_id = open_stored(qtbot, window)
    project = window.session.require_project()
    stack = window.session.undo_stack
    type_subject(view, "animal cell")
    wait_idle(qtbot)
    rename_first_label(qtbot, view, "Nucleolus")
    stack.undo()
    stack.undo()  # both undone: the redos would write "animal cell", then "Nucleolus"
    assert names(project, item_id) == ["Nucleus", "Cell wall"]

    edit_key_in_child(project_dir, item_id, "1", "Vacuole")  # another program
    conflicts.answer = RELOAD
    stack.redo()  # the subject: refused by the version (the step is dropped); Reload
    qtbot.waitUntil(lambda: len(conflicts.shown) == 1)
    wait_idle(qtbot)
    assert [e.name for e in view.key.model.entries] == ["Vacuole", "Cell wall"]
    assert stack.redoText() == "Rename label"

    stack.redo()  # the version is the reloaded one; the key is not what the step left
    qtbot.waitUntil(lambda: len(conflicts.shown) == 2)
    assert conflicts.shown[-1].startswith("Cannot redo “Rename label”")
    assert "now Vacuole, Cell wall; this step left Nucleus, Cell wall" in conflicts.shown[-1]
    assert names(project, item_id) == ["Vacuole", "Cell wall"]
    assert project.items.get(item_id).subject == "plant cell"
    assert not stack.canRedo()


def test_a_box_edit_is_undone_whole_or_not_at_all(qtbot, window, project_dir, conflicts):  # noqa: F811
    view = curate(window)
    item_id = add_item(qtbot, window)
    project = window.session.require_project()
    stack = window.session.undo_stack
    first = project.items.key(item_id)
    removed = next(e for e in first if e.name == "Nucleus")
    view.erase_again(view.preview.figure.with_edit("keep", removed.bbox, True))
    qtbot.waitUntil(lambda: "keep" in project.items.get(item_id).erase_edits, timeout=20000)
    wait_idle(qtbot)
    erased = project.items.get(item_id)
    assert "Nucleus" not in names(project, item_id)  # the kept label left the key
    assert stack.undoText() == "Edit boxes"

    with Project.open(project_dir) as other:  # another curator adds a label to the key
        key = [*other.items.key(item_id), KeyEntry("Chloroplast")]
        other.items.set_key(item_id, key, expected_version=erased.version)
    reload_after_refused_edit(qtbot, view, conflicts, "plant cell")
    stack.undo()  # the key is theirs now: neither the key nor the images go back
    qtbot.waitUntil(lambda: len(conflicts.shown) == 2)
    assert "Cannot undo “Edit boxes”" in conflicts.shown[-1]
    now = project.items.get(item_id)
    assert (now.question_asset, now.erase_edits) == (erased.question_asset, erased.erase_edits)
    assert names(project, item_id)[-1] == "Chloroplast"
    assert stack.undoText() != "Edit boxes"
