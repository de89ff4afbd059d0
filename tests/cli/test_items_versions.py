"""``items edit-key`` and ``items set-status`` refuse a stale edit with exit code 4.

A script reads the item (``items show --json`` prints its version), someone else edits it
through another connection, and the script's change naming the old version must write
nothing, say why in one line, and exit 4 (2 stays "the command itself is wrong").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.cli.items_cmds import EXIT_CONFLICT
from labeler.store import KeyEntry, NewItem, Project


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "proj", name="Heart") as p:
        p.items.add(
            NewItem(subject="human heart", key=[KeyEntry("Aorta"), KeyEntry("Left atrium")])
        )
    return tmp_path / "proj"


def the_item(folder: Path):
    with Project.open(folder) as p:
        [item] = p.items.list()
        return item, p.items.key(item.id)


def shown_version(folder: Path, item_id: str, capsys) -> int:
    assert main(["items", "show", str(folder), item_id, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["version"]


def add_alternative(folder: Path, item_id: str) -> list[str]:
    return ["items", "edit-key", str(folder), item_id, "Aorta", "--add-alternative", "aortic arch"]


def someone_else_edits(folder: Path, item_id: str) -> None:
    with Project.open(folder) as other:
        other.items.update(item_id, notes="checked by Ana")


def test_edit_key_at_a_stale_version_exits_4_and_writes_nothing(folder, capsys):
    item, key = the_item(folder)
    version = shown_version(folder, item.id, capsys)
    assert version == item.version == 1
    someone_else_edits(folder, item.id)

    code = main([*add_alternative(folder, item.id), "--expected-version", str(version)])
    err = capsys.readouterr().err
    assert code == EXIT_CONFLICT == 4
    assert "edit conflict" in err and "at version 2, not 1" in err and "nothing was written" in err
    assert f"labeler items show {folder} {item.id}" in err
    after, after_key = the_item(folder)
    assert after_key == key and after.version == 2 and after.notes == "checked by Ana"

    # at the version it is now, the same change is made and the version moves on
    code = main([*add_alternative(folder, item.id), "--expected-version", "2"])
    assert code == 0
    done, done_key = the_item(folder)
    assert done_key[0].alternatives == ("aortic arch",) and done.version == 3
    assert "version 3" in capsys.readouterr().out


def test_set_status_at_a_stale_version_exits_4_and_records_no_acceptance(folder, capsys):
    item, _ = the_item(folder)
    someone_else_edits(folder, item.id)
    stale = ["items", "set-status", str(folder), item.id, "excluded", "--expected-version", "1"]
    assert main(stale) == EXIT_CONFLICT
    assert "edit conflict" in capsys.readouterr().err
    assert the_item(folder)[0].status == "draft"

    accept = ["items", "set-status", str(folder), item.id, "ready", "--accept", "part of art"]
    assert main([*accept, "--expected-version", "1"]) == EXIT_CONFLICT
    assert "nothing was written" in capsys.readouterr().err
    with Project.open(folder) as p:
        assert p.residual_checks.get(item.id) is None
        assert p.items.get(item.id).status == "draft"

    assert main([*stale[:-1], "2"]) == 0
    assert capsys.readouterr().out.strip() == f"{item.id}: excluded (version 3)"


def test_without_expected_version_the_command_writes_at_the_version_it_read(folder, capsys):
    item, _ = the_item(folder)
    someone_else_edits(folder, item.id)  # before the command reads: nothing to refuse
    assert main(["items", "edit-key", str(folder), item.id, "2", "--name", "Right atrium"]) == 0
    after, key = the_item(folder)
    assert [e.name for e in key] == ["Aorta", "Right atrium"] and after.version == 3
    assert "· version 3" in capsys.readouterr().out
