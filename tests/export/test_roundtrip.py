"""export -> import-items + import-results into a fresh project -> export: identical files."""

import json

import pytest

from labeler.cli import main
from labeler.export.importer import import_items, import_results
from labeler.store import NewItem, Project
from tests.export.export_fixtures import MODELS

FILES = ("README.md", "items.jsonl", "results.jsonl", "sample/results.jsonl")


def run(*argv):
    return main([str(a) for a in argv])


def _caveats(card: str) -> str:
    return card.split("Computed from the exported data.\n\n", 1)[1].split("\n\n## ", 1)[0]


def _published(path) -> bytes:
    """A file's bytes, the card's caveats left out (they count what the export left out)."""
    data = path.read_bytes()
    if path.name != "README.md":
        return data
    return data.replace(_caveats(data.decode()).encode(), b"")


def test_round_trip_through_the_cli_gives_identical_files(project, tmp_path, capsys):
    first, second, fresh = tmp_path / "first", tmp_path / "second", tmp_path / "fresh"
    project.close()
    assert run("export", tmp_path / "proj", "--out", first) == 0
    out = capsys.readouterr().out
    assert "exported 3 items, 14 rows, 2 models" in out and str(first / "results.jsonl") in out
    init = ("init", fresh, "--name", "Heart figures", "--id-prefix", "NALANDA")
    assert run(*init, "--no-starter-lexicon") == 0  # the published rows only: identical files
    assert run("import-items", fresh, first / "items.jsonl") == 0
    assert run("import-results", fresh, first / "results.jsonl") == 0
    assert "imported 14 response(s)" in capsys.readouterr().out
    assert run("export", fresh, "--out", second) == 0
    for name in FILES:
        assert _published(first / name) == _published(second / name), name
    # the caveats also describe what the exporting project left out, which no import can know
    first_caveats = _caveats((first / "README.md").read_text())
    assert "1 item not marked ready" in first_caveats
    assert "not published: 1 cell whose latest call returned no answer" in first_caveats
    assert _caveats((second / "README.md").read_text()) == "No caveats were found in the data."
    with Project.open(fresh) as p:
        origins = {r.origin for r in p.responses.latest()}
        assert origins == {"import"}
        assert all(i.status == "ready" for i in p.items.list())


def test_importing_twice_adds_nothing(project, tmp_path):
    from labeler.export.exporter import export_project

    export_project(project, tmp_path / "out")
    with Project.create(tmp_path / "fresh", id_prefix="NALANDA") as fresh:
        items = import_items(fresh, tmp_path / "out" / "items.jsonl")
        assert len(items.created) == 3 and items.already_present == []
        again = import_items(fresh, tmp_path / "out" / "items.jsonl")
        assert again.created == [] and len(again.already_present) == 3
        first = import_results(fresh, tmp_path / "out" / "results.jsonl")
        second = import_results(fresh, tmp_path / "out" / "results.jsonl")
        assert (first.imported, first.score_differs, first.key_differs) == (14, 0, [])
        assert (second.imported, second.unchanged) == (0, 14)
        count = fresh.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        assert count == 14


def test_import_into_the_exporting_project_attaches_by_public_id(project, tmp_path):
    from labeler.export.exporter import export_project

    export_project(project, tmp_path / "out")
    path = tmp_path / "other-lab.jsonl"
    rows = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    for row in rows:
        row["model"] = "other-lab/" + row["model"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    report = import_results(project, path)
    assert report.imported == 14
    imported = project.responses.latest(models=["other-lab/" + m for m in MODELS])
    assert {r.item_id for r in imported} == {
        i.id for i in project.items.list() if i.status != "excluded"
    }
    assert MODELS[0] not in {r.model for r in imported}


def test_unknown_items_are_reported_not_dropped(project, tmp_path, capsys):
    from labeler.export.exporter import export_project

    export_project(project, tmp_path / "out")
    items = (tmp_path / "out" / "items.jsonl").read_text().splitlines()
    (tmp_path / "some-items.jsonl").write_text(items[0] + "\n")
    results = tmp_path / "out" / "results.jsonl"
    run("init", tmp_path / "fresh", "--id-prefix", "NALANDA")
    run("import-items", tmp_path / "fresh", tmp_path / "some-items.jsonl")
    capsys.readouterr()
    assert run("import-results", tmp_path / "fresh", results) == 2
    err = capsys.readouterr().err
    assert "results for 2 item(s) this project does not have: NALANDA-2, NALANDA-3" in err
    with Project.open(tmp_path / "fresh") as fresh:
        assert fresh.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 0
    assert run("import-results", tmp_path / "fresh", results, "--skip-unknown") == 0
    out = capsys.readouterr().out
    known = [x for x in results.read_text().splitlines() if '"NALANDA-1"' in x]
    assert f"imported {len(known)} response(s)" in out
    assert "unknown item(s): NALANDA-2, NALANDA-3" in out


def test_prefix_mismatch_and_bad_files_are_clear_errors(project, tmp_path):
    from labeler.errors import LabelerError
    from labeler.export.exporter import export_project

    export_project(project, tmp_path / "out")
    with Project.create(tmp_path / "other", id_prefix="BIO") as other:
        with pytest.raises(LabelerError, match="--id-prefix NALANDA"):
            import_items(other, tmp_path / "out" / "items.jsonl")
        broken = tmp_path / "broken.jsonl"
        broken.write_text('{"item_id": "BIO-1"}\n{not json\n')
        with pytest.raises(LabelerError, match="line 2"):
            import_results(other, broken)
        wrong = tmp_path / "wrong.jsonl"
        wrong.write_text('{"item_id": "BIO-1", "model": "m"}\n')
        with pytest.raises(LabelerError, match=r"nothing imported.*missing"):
            import_results(other, wrong)
        assert other.db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0


def test_export_command_defaults_to_exports_project_name(project, tmp_path, monkeypatch, capsys):
    project.close()
    monkeypatch.chdir(tmp_path)
    assert run("export", tmp_path / "proj", "--only-ready", "--private") == 0
    out = capsys.readouterr().out
    folder = tmp_path / "exports" / "Heart figures"
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md", "audit.jsonl", "items.jsonl", "provenance.jsonl", "results.jsonl",
        "sample",
    ]  # fmt: skip
    assert "exported 2 items" in out and "PRIVATE: provenance.jsonl" in out
    assert "2 item(s) got new public IDs" in out
    assert run("export", tmp_path / "proj") == 0  # the draft is numbered next
    assert "1 item(s) got new public IDs" in capsys.readouterr().out


def test_import_reports_a_changed_key_and_changed_scores(project, tmp_path):
    from labeler.export.exporter import export_project
    from labeler.store import KeyEntry

    export_project(project, tmp_path / "out")
    heart = "campbell-p137-fig42-3"
    project.items.set_key(heart, [KeyEntry("Left atrium"), KeyEntry("Aorta")])
    report = import_results(project, tmp_path / "out" / "results.jsonl")
    from labeler.export.ids import stored_public_ids

    assert report.key_differs == [stored_public_ids(project)[heart]]
    assert report.score_differs > 0  # the published scores used the old key
    assert report.unchanged == 14 and report.imported == 0


def test_markers_without_names_survive_the_round_trip(tmp_path):
    from labeler.export.exporter import export_project
    from labeler.store import KeyEntry

    with Project.create(tmp_path / "p", id_prefix="NALANDA") as p:
        key = [KeyEntry("", marker="C"), KeyEntry("Nucleus", marker="A"), KeyEntry("Vacuole")]
        p.items.add(NewItem(subject="plant cell", pattern="C", key=key, status="ready"))
        export_project(p, tmp_path / "first")
    row = json.loads((tmp_path / "first" / "items.jsonl").read_text())
    assert row["markers"] == {"A": "Nucleus", "C": None}
    assert row["key_names"] == ["Nucleus", "Vacuole"]
    with Project.create(tmp_path / "fresh", id_prefix="NALANDA", name="p") as fresh:
        import_items(fresh, tmp_path / "first" / "items.jsonl")
        (item,) = fresh.items.list()
        assert [(e.name, e.marker) for e in fresh.items.key(item.id)] == [
            ("Nucleus", "A"), ("Vacuole", None), ("", "C"),
        ]  # fmt: skip
        export_project(fresh, tmp_path / "second")
    for name in FILES:
        assert (tmp_path / "first" / name).read_bytes() == (tmp_path / "second" / name).read_bytes()
