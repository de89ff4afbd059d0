"""``labeler items show`` and ``labeler items edit-key`` on a real project."""

from __future__ import annotations

import json

import pytest

from labeler.cli import main
from labeler.export.exporter import export_project
from labeler.results import load_results
from labeler.store import KeyEntry, NewItem, NewResponse, Project


@pytest.fixture
def folder(tmp_path):
    with Project.create(tmp_path / "proj", name="Ear", id_prefix="EAR") as p:
        item = p.items.add(
            NewItem(
                subject="human ear",
                status="ready",
                key=[
                    KeyEntry("Tympanic membrane", marker="A", alternatives=("eardrum",)),
                    KeyEntry("Aorta (cut)", origin="vector"),
                    KeyEntry("", marker="C"),
                ],
            )
        )
        p.responses.record(
            NewResponse(item.id, "m", "told", "h", status="ok", labels=[{"name": "tympanum"}])
        )
        (tmp_path / "id").write_text(item.id)
    return tmp_path / "proj"


def item_id(folder) -> str:
    return (folder.parent / "id").read_text()


def run(*argv) -> int:
    return main([str(a) for a in argv])


def key(folder) -> list[KeyEntry]:
    with Project.open(folder) as p:
        return p.items.key(item_id(folder))


def test_show_lists_the_key_with_alternatives_notes_and_markers(folder, capsys):
    assert run("items", "show", folder, item_id(folder)) == 0
    out = capsys.readouterr().out
    assert "subject: human ear" in out and "not yet exported" in out
    assert "1. Tympanic membrane [A]\n     alternatives: eardrum\n" in out
    assert "2. Aorta (cut)\n" in out and "3. (marker only) [C]" in out
    assert run("items", "show", folder, item_id(folder), "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["key"][0]["alternatives"] == ["eardrum"] and shown["key"][0]["note"] == ""


def test_adding_an_alternative_makes_an_answer_using_it_score(folder, capsys):
    with Project.open(folder) as p:
        assert [c.f1 for c in load_results(p)] == [0.0]
    assert (
        run("items", "edit-key", folder, item_id(folder), "1", "--add-alternative", "tympanum") == 0
    )
    assert "alternatives: eardrum; tympanum" in capsys.readouterr().out
    with Project.open(folder) as p:
        # one of two key names, nothing wrong: precision 1, recall 1/2
        assert [c.f1 for c in load_results(p)] == [pytest.approx(2 / 3)]
    assert (
        run(
            "items",
            "edit-key",
            folder,
            item_id(folder),
            "tympanic MEMBRANE",
            "--remove-alternative",
            "Eardrum",
        )
        == 0
    )
    assert key(folder)[0].alternatives == ("tympanum",)


def test_tidy_splits_a_typed_name_and_note_and_name_can_be_set(folder, capsys):
    assert run("items", "edit-key", folder, item_id(folder), "2", "--tidy") == 0
    assert "2. Aorta\n     note: cut" in capsys.readouterr().out
    assert key(folder)[1] == KeyEntry("Aorta", note="cut", origin="manual")
    assert (
        run(
            "items",
            "edit-key",
            folder,
            item_id(folder),
            "aorta",
            "--note",
            "",
            "--name",
            "Ascending aorta",
        )
        == 0
    )
    assert key(folder)[1] == KeyEntry("Ascending aorta", origin="manual")
    assert run("items", "edit-key", folder, item_id(folder), "1", "--alternatives", "") == 0
    assert key(folder)[0].alternatives == ()
    typed = ("--name", "Tympanic membrane (eardrum; cut)", "--tidy")
    assert run("items", "edit-key", folder, item_id(folder), "1", *typed) == 0
    assert key(folder)[0] == KeyEntry(
        "Tympanic membrane", marker="A", alternatives=("eardrum",), note="cut"
    )


def test_items_are_found_by_public_id_once_exported(folder, tmp_path, capsys):
    with Project.open(folder) as p:
        export_project(p, tmp_path / "out")
    assert run("items", "edit-key", folder, "EAR-1", "A", "--add-alternative", "tympanum") == 0
    assert "(EAR-1)" in capsys.readouterr().out
    assert key(folder)[0].alternatives == ("eardrum", "tympanum")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("9", "--note", "x"), "the key has 3 entries"),
        (("stapes", "--note", "x"), "no key entry 'stapes'; the key is: 1. Tympanic membrane"),
        (("1", "--remove-alternative", "hammer"), "has no alternative 'hammer' (it has: eardrum)"),
        (("C", "--add-alternative", "stapes"), "needs a name"),
        (("1",), "say what to change"),
        (("1", "--name", " "), "alternatives needs a name"),
    ],
)
def test_bad_edits_say_why_and_change_nothing(folder, capsys, args, message):
    before = key(folder)
    assert run("items", "edit-key", folder, item_id(folder), *args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert key(folder) == before


def test_an_unknown_item_is_a_clear_error(folder, capsys):
    assert run("items", "show", folder, "it-nope") == 2
    assert "no item with id 'it-nope'" in capsys.readouterr().err
