"""Hostile published files: what JSON allows but SQLite cannot hold is a clear error.

A real export of a real project is mutated (a public number past 2**63, a lone
surrogate, deep nesting, a 5,000-digit integer) and imported through the core and the
real CLI: a clear LabelerError, nothing imported, the database intact.
"""

import json

import pytest
from attack_support import assert_clear_error, cli, cli_in_process

from labeler.errors import LabelerError
from labeler.export.exporter import export_project
from labeler.export.importer import import_items, import_results
from labeler.store import Project
from tests.runs.runs_support import make_project


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    folder = tmp_path_factory.mktemp("published")
    with make_project(folder / "p") as project:
        export_project(project, folder / "out")
    return [json.loads(line) for line in (folder / "out" / "items.jsonl").read_text().splitlines()]


def _set(path, value):
    def apply(row):
        target = row
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return apply


NESTED = json.loads("[" * 40 + "]" * 40)
CASES = {
    "public-number-past-int64": (_set(["item_id"], "ITEM-9223372036854775808"), "too large"),
    "public-number-30-digits": (_set(["item_id"], "ITEM-" + "9" * 30), "too large"),
    "count-past-int64": (_set(["n_key"], 2**70), "beyond a 64-bit integer"),
    "lone-surrogate-subject": (_set(["subject"], "heart \ud800"), "lone surrogate"),
    "lone-surrogate-key-name": (_set(["key_names", 0], "aorta\udc00"), "lone surrogate"),
    "lone-surrogate-marker-key": (_set(["markers"], {"\udfff": "aorta"}), "lone surrogate"),
    "nested-40-deep": (_set(["lexicon"], NESTED), "nested more than"),
}
RAW = {
    "nested-100000-deep": '{"item_id": "ITEM-1", "key_names": ' + "[" * 100000 + "]" * 100000 + "}",
    "integer-of-5000-digits": '{"item_id": "ITEM-1", "n_key": ' + "7" * 5000 + "}",
}


def _write(tmp_path, name, rows=None, raw=None):
    path = tmp_path / f"{name}.jsonl"
    text = raw + "\n" if raw is not None else "".join(json.dumps(r) + "\n" for r in rows)
    path.write_text(text, encoding="utf-8")
    return path


def _assert_untouched(project):
    assert project.items.list() == []
    assert project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 0
    assert project.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_hostile_items_file_is_a_clear_error_and_imports_nothing(tmp_path, published, case):
    mutate, needle = CASES[case]
    rows = json.loads(json.dumps(published))
    mutate(rows[-1])
    path = _write(tmp_path, case, rows)
    with Project.create(tmp_path / "q", name="q") as project:
        with pytest.raises(LabelerError, match=needle):
            import_items(project, path)
        _assert_untouched(project)


@pytest.mark.parametrize("case", sorted(RAW))
def test_unreadable_json_is_a_clear_error_for_items_and_results(tmp_path, case):
    path = _write(tmp_path, case, raw=RAW[case])
    with Project.create(tmp_path / "q", name="q") as project:
        for load in (import_items, import_results):
            with pytest.raises(LabelerError, match="line 1"):
                load(project, path)
        _assert_untouched(project)


def test_the_cli_reports_every_hostile_import_without_a_traceback(tmp_path, published):
    Project.create(tmp_path / "q", name="q").close()
    files = {}
    for case, (mutate, needle) in CASES.items():
        rows = json.loads(json.dumps(published))
        mutate(rows[0])
        files[case] = (_write(tmp_path, case, rows), needle)
    for case, raw in RAW.items():
        files[case] = (_write(tmp_path, case, raw=raw), "line 1")
    for case, (path, needle) in sorted(files.items()):
        for command in ("import-items", "import-results"):
            args = (command, str(tmp_path / "q"), str(path))
            runs = [cli_in_process(*args)]
            if case == "lone-surrogate-subject":  # end to end, in a real process too
                runs.append(cli(*args))
            for code, out in runs:
                assert_clear_error(code, out)
                if command == "import-items":
                    assert needle in out, out
    with Project.open(tmp_path / "q") as project:
        _assert_untouched(project)
