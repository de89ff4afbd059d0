"""Public IDs: salted-hash order, stable across exports, next numbers for new items."""

import hashlib

import pytest

from labeler.errors import ExportError, LabelerError
from labeler.export.exporter import export_project
from labeler.export.ids import (
    assign_public_ids,
    parse_public_id,
    set_public_number,
    stored_public_ids,
)
from labeler.store import KeyEntry, NewItem, Project


def salted_order(project, ids):
    salt = project.get_meta("id_salt")
    return sorted(ids, key=lambda i: hashlib.sha256(f"{salt}:{i}".encode()).hexdigest())


def test_numbers_follow_the_salted_hash_not_creation_order(tmp_path):
    project = Project.create(tmp_path / "p", id_prefix="nalanda")
    ids = [
        project.items.add(NewItem(item_id=f"book-p{n:03d}", key=[KeyEntry("x")])).id
        for n in range(40)
    ]
    public = assign_public_ids(project, ids)
    expected = {i: f"NALANDA-{n}" for n, i in enumerate(salted_order(project, ids), start=1)}
    assert public == expected
    assert [public[i] for i in ids] != [f"NALANDA-{n}" for n in range(1, 41)]  # not by source


def test_another_salt_gives_another_order(tmp_path):
    orders = []
    for name in ("a", "b"):
        project = Project.create(tmp_path / name)
        ids = [project.items.add(NewItem(item_id=f"book-p{n:03d}")).id for n in range(20)]
        public = assign_public_ids(project, ids)
        orders.append([public[i] for i in ids])
    assert orders[0] != orders[1]


def test_numbers_are_stable_and_new_items_get_the_next_ones(tmp_path):
    project = Project.create(tmp_path / "p", id_prefix="bio")
    first = [project.items.add(NewItem(key=[KeyEntry("x")])).id for _ in range(5)]
    public = assign_public_ids(project, first)
    later = [project.items.add(NewItem(key=[KeyEntry("y")])).id for _ in range(3)]
    again = assign_public_ids(project, first + later)
    assert {i: again[i] for i in first} == public
    assert sorted(parse_public_id("BIO", again[i]) for i in later) == [6, 7, 8]
    # reopened: still the same numbers
    project.close()
    with Project.open(tmp_path / "p") as reopened:
        assert stored_public_ids(reopened) == again


def test_numbers_survive_exclusion_and_re_export(project, tmp_path):
    export_project(project, tmp_path / "e1")
    before = stored_public_ids(project)
    draft = next(i for i in project.items.list(status="draft"))
    project.items.update(draft.id, status="excluded")
    project.items.add(NewItem(subject="new", key=[KeyEntry("Aorta")], status="ready"))
    export_project(project, tmp_path / "e2")
    after = stored_public_ids(project)
    assert {k: after[k] for k in before} == before
    assert sorted(after.values())[-1] == "NALANDA-4"


def test_failed_export_gives_no_numbers(project, tmp_path):
    project.items.add(NewItem(subject="no key yet", status="ready"))
    with pytest.raises(ExportError, match="no answer key"):
        export_project(project, tmp_path / "out")
    assert stored_public_ids(project) == {}


def test_parse_and_set_number(tmp_path):
    project = Project.create(tmp_path / "p", id_prefix="nalanda")
    a, b = project.items.add(NewItem()).id, project.items.add(NewItem()).id
    assert parse_public_id("NALANDA", "NALANDA-12") == 12
    for bad in ("NALANDA-0", "OTHER-3", "NALANDA-x", "NALANDA-3-1"):
        with pytest.raises(LabelerError, match="not a public item ID"):
            parse_public_id("NALANDA", bad)
    set_public_number(project, a, 7)
    with pytest.raises(LabelerError, match="NALANDA-7 already belongs"):
        set_public_number(project, b, 7)
    assert assign_public_ids(project, [b, a]) == {b: "NALANDA-8", a: "NALANDA-7"}
