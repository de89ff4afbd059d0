"""Optimistic versioning: an edit made from a stale copy of an item is refused, never lost."""

import json
import subprocess
import sys

import pytest

from labeler.errors import EditConflict
from labeler.store import KeyEntry, NewItem, Project


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p") as p:
        yield p


def test_every_write_to_an_item_or_its_key_bumps_its_version(project):
    item = project.items.add(NewItem(subject="heart"))
    assert item.version == 1
    assert project.items.update(item.id, subject="human heart").version == 2
    project.items.set_key(item.id, [KeyEntry("Aorta")])
    assert project.items.get(item.id).version == 3
    moved = project.items.set_images(
        item.id,
        question_png=b"q",
        answer_png=b"a",
        question_pdf=None,
        erase_method="vector-text",
        erase_edits={},
        expected_version=3,
    )
    assert moved.version == 4


def test_a_stale_edit_is_refused_with_a_clear_message_and_writes_nothing(project):
    item = project.items.add(NewItem(subject="heart", key=[KeyEntry("Aorta")]))
    mine, theirs = project.items.get(item.id), project.items.get(item.id)
    project.items.update(item.id, notes="theirs", expected_version=theirs.version)
    with pytest.raises(
        EditConflict, match=r"changed by someone else.*version 1.*version 2.*reload"
    ):
        project.items.update(item.id, notes="mine", expected_version=mine.version)
    with pytest.raises(EditConflict):
        project.items.set_key(item.id, [KeyEntry("Vena cava")], expected_version=mine.version)
    now = project.items.get(item.id)
    assert (now.notes, now.version) == ("theirs", 2)
    assert project.items.key(item.id) == [KeyEntry("Aorta")]


def test_two_processes_adding_and_editing_lose_no_update(project):
    """Two curators at once: each adds items and appends to one shared item's notes."""
    project.items.add(NewItem(item_id="shared", subject="shared"))
    rounds = 15
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.store.edit_worker",
                str(project.folder),
                name,
                str(rounds),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("ann", "bob")
    ]
    reports = []
    for worker in workers:
        out, err = worker.communicate(timeout=180)
        assert worker.returncode == 0, err
        reports.append(json.loads(out))
    shared = project.items.get("shared")
    marks = shared.notes.split()
    # every append survived: nothing was overwritten by an edit from a stale copy
    assert sorted(marks) == sorted(f"{who}{n}" for who in ("ann", "bob") for n in range(rounds))
    assert shared.version == 1 + 2 * rounds
    for report in reports:
        assert len(report["items"]) == rounds
        for item_id in report["items"]:
            assert project.items.get(item_id).version == 2
            assert [e.name for e in project.items.key(item_id)][1] == "edited"
    assert len(project.items.list()) == 1 + 2 * rounds
