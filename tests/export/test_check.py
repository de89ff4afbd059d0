"""check_export: the export built and validated in memory, nothing written, nothing numbered."""

import json

import pytest

from labeler.errors import ExportError
from labeler.export.exporter import check_export, export_project, report_lines, select_items
from labeler.export.ids import stored_public_ids
from labeler.store import NewItem


def test_a_check_reports_what_the_export_writes_without_writing_or_numbering(
    project, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # the default export folder would be under here
    before = sorted(tmp_path.rglob("*"))
    check = check_export(project, private=True)
    assert check.folder is None and sorted(tmp_path.rglob("*")) == before
    assert stored_public_ids(project) == {}  # no number was stored
    assert check.new_ids == check.n_items == len(select_items(project)) == 3  # one is excluded
    lines = report_lines(check)
    assert lines[0].startswith(f"valid: {check.n_items} items, {check.n_rows} rows")
    assert f"  {check.new_ids} item(s) will get new public IDs" in lines

    out = tmp_path / "out"
    done = export_project(project, out, private=True)
    # the check saw exactly the export that was then written, public IDs included
    assert (check.files, check.n_rows, check.n_models) == (done.files, done.n_rows, done.n_models)
    assert (check.new_ids, check.skipped_unanswered) == (done.new_ids, done.skipped_unanswered)
    rows = [json.loads(x) for x in (out / "items.jsonl").read_text().splitlines()]
    assert sorted(r["item_id"] for r in rows) == sorted(stored_public_ids(project).values())
    assert check_export(project).new_ids == 0  # numbered now


def test_a_check_raises_the_problem_an_export_would_hit(project, tmp_path):
    project.items.add(NewItem(subject="forgot the key", status="draft"))
    with pytest.raises(ExportError, match="no answer key"):
        check_export(project)
    assert stored_public_ids(project) == {}
    assert check_export(project, only_ready=True).n_items == 2  # the ready ones pass
    for item in project.items.list():
        project.items.update(item.id, status="excluded")
    with pytest.raises(ExportError, match="nothing to export"):
        check_export(project)
