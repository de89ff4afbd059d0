"""Key entries carry alternatives and a note: stored (migration 3), checked, edited by rules."""

from __future__ import annotations

import sqlite3

import pymupdf
import pytest

from labeler.curation import (
    add_item_from_document,
    edit_entry,
    format_alternatives,
    merge_entries,
    parse_alternatives,
    split_entry,
    tidy_entry,
)
from labeler.errors import LabelerError
from labeler.store import KeyEntry, NewItem, Project
from labeler.store.records import alternative_rows
from labeler.store.schema import SCHEMA_VERSION

EARDRUM = KeyEntry("Tympanic membrane", alternatives=("eardrum",), note="")


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "proj", name="Ear", id_prefix="ear") as p:
        yield p


def test_alternatives_and_note_are_stored_and_read_back(project):
    key = [EARDRUM, KeyEntry("Aorta", note="cut"), KeyEntry("", marker="C")]
    item = project.items.add(NewItem(subject="ear", key=key))
    assert project.items.key(item.id) == key
    with Project.open(project.folder) as again:
        assert again.items.keys()[item.id] == key


def test_stored_alternatives_are_trimmed_and_repeats_dropped(project):
    messy = KeyEntry("Trachea", alternatives=("  windpipe ", "", "Windpipe", "trachea"))
    item = project.items.add(NewItem(key=[messy]))
    assert project.items.key(item.id)[0].alternatives == ("windpipe",)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (KeyEntry("", marker="B", alternatives=("eardrum",)), "needs a name"),
        (KeyEntry("Trachea", alternatives="windpipe"), "a list of names"),  # type: ignore[arg-type]
        (KeyEntry("Trachea", alternatives=(3,)), "is a name"),  # type: ignore[arg-type]
    ],
)
def test_bad_alternatives_are_refused_and_nothing_is_stored(project, entry, message):
    item = project.items.add(NewItem(key=[EARDRUM]))
    with pytest.raises(LabelerError, match=message):
        project.items.set_key(item.id, [KeyEntry("Aorta"), entry])
    assert project.items.key(item.id) == [EARDRUM]


@pytest.mark.sqlite_only
def test_a_version_2_database_gains_empty_alternatives_and_notes(tmp_path):
    from labeler.store.database import _statements
    from labeler.store.schema import MIGRATIONS

    folder = tmp_path / "old"
    (folder / "assets").mkdir(parents=True)
    db = sqlite3.connect(folder / "project.sqlite")
    for migration in MIGRATIONS[:2]:
        for statement in _statements(migration):
            db.execute(statement)
    db.execute("PRAGMA user_version=2")
    db.execute("INSERT INTO items(id, created_at, updated_at) VALUES ('it-1', 't', 't')")
    db.execute(
        "INSERT INTO key_entries(item_id, position, name, marker) VALUES ('it-1', 0, 'Aorta', 'A')"
    )
    db.commit()
    db.close()
    with Project.open(folder) as project:
        assert project.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert project.items.key("it-1") == [KeyEntry("Aorta", marker="A")]


def test_alternative_rows_are_same_rows_of_named_entries():
    key = [
        KeyEntry("Mitral valve", alternatives=("bicuspid valve", "left AV valve")),
        KeyEntry("Aorta", note="cut"),
    ]
    assert alternative_rows(key) == (
        ("Mitral valve", "bicuspid valve", "same"),
        ("Mitral valve", "left AV valve", "same"),
    )


def test_edit_entry_changes_only_what_is_given_and_checks_it():
    entry = KeyEntry("Aorta", (1, 2, 3, 4), (9, 9), "A", "vector", ("aortic trunk",), "cut")
    renamed = edit_entry(entry, name="  Ascending   aorta ")
    assert renamed == KeyEntry(
        "Ascending aorta", (1, 2, 3, 4), (9, 9), "A", "manual", ("aortic trunk",), "cut"
    )
    assert edit_entry(entry, alternatives=[], note="").alternatives == ()
    assert edit_entry(entry, note=" cut  away ").note == "cut away"
    with pytest.raises(LabelerError, match="name or a marker"):
        edit_entry(KeyEntry("Aorta"), name=" ")
    with pytest.raises(LabelerError, match="needs a name"):
        edit_entry(KeyEntry("", marker="B"), alternatives=["aorta"])


def test_tidy_reads_a_typed_label_and_keeps_what_the_entry_had():
    entry = KeyEntry("Tympanic membrane (eardrum)", (0, 0, 90, 10), (120, 5), "D", "ocr")
    assert tidy_entry(entry) == KeyEntry(
        "Tympanic membrane", (0, 0, 90, 10), (120, 5), "D", "manual", ("eardrum",), ""
    )
    had = KeyEntry("Aorta (cut)", alternatives=("aortic trunk",), note="ascending")
    assert tidy_entry(had) == KeyEntry(
        "Aorta", alternatives=("aortic trunk",), note="ascending; cut", origin="manual"
    )
    plain = KeyEntry("Left ventricle", origin="vector")
    assert tidy_entry(plain) is plain


def test_typed_alternatives_round_trip_through_semicolons():
    assert parse_alternatives(" eardrum ;; tympanum ; ") == ("eardrum", "tympanum")
    assert parse_alternatives("1,3-bisphosphoglycerate") == ("1,3-bisphosphoglycerate",)
    assert format_alternatives(("eardrum", "tympanum")) == "eardrum; tympanum"


def test_merge_and_split_keep_alternatives_and_notes_with_the_name():
    merged = merge_entries(
        [KeyEntry("Tympanic", note="cut"), KeyEntry("membrane", alternatives=("eardrum",))]
    )
    assert (merged.name, merged.alternatives, merged.note) == (
        "Tympanic membrane",
        ("eardrum",),
        "cut",
    )
    first, second = split_entry(
        KeyEntry("aorta, vena cava", alternatives=("aortic trunk",), note="cut")
    )
    assert (first.alternatives, first.note) == (("aortic trunk",), "cut")
    assert (second.alternatives, second.note) == ((), "")


def test_harvest_proposes_the_split_for_labels_printed_in_a_real_pdf(project, tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_circle((150, 300), 60)
    for y, text in ((200, "Tympanic membrane (eardrum)"), (300, "Aorta (cut)")):
        page.draw_line((260, y - 3), (180, 300))
        page.insert_text((265, y), text, fontsize=10)
    pdf = tmp_path / "ear.pdf"
    doc.save(pdf)
    doc.close()
    item = add_item_from_document(project, pdf, 1, (60, 150, 500, 400), item=NewItem(subject="ear"))
    got = {(e.name, e.alternatives, e.note) for e in project.items.key(item.id)}
    assert got == {("Tympanic membrane", ("eardrum",), ""), ("Aorta", (), "cut")}
