"""results.jsonl streamed to the staging folder: batches checked as one file, failures leave
nothing behind.

The export makes, checks and writes its rows a batch at a time (issue #17). A problem found
in a later batch must be reported as the whole-file check reports it (row numbers run on,
a cell repeated across batches is caught), and an export refused after its rows reached the
staging folder must leave the earlier export, the folder beside it and the project's public
numbers exactly as they were.
"""

from __future__ import annotations

import json

import pytest

from labeler.errors import ExportError
from labeler.export.exporter import export_project
from labeler.export.ids import stored_public_ids
from labeler.export.rows import result_batches
from labeler.export.validate import ResultsCheck, validate_items, validate_results
from labeler.results import cell_columns
from tests.export.export_fixtures import MODELS, SOURCE_TITLE, answer


def _rows_and_items(project, tmp_path):
    export_project(project, tmp_path / "first")

    def read(name):
        text = (tmp_path / "first" / name).read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines()]

    items = read("items.jsonl")
    return read("results.jsonl"), validate_items(items, "NALANDA")


def _message(check_batches) -> str:
    with pytest.raises(ExportError) as raised:
        check_batches()
    return str(raised.value)


def test_batches_report_what_one_pass_over_the_file_reports(project, tmp_path):
    rows, items = _rows_and_items(project, tmp_path)
    assert len(rows) > 8
    bad = [dict(r) for r in rows]
    bad[6]["f1"] = 1.5  # in the second batch below
    bad[7]["n_pred"] = "3"
    bad.append(dict(rows[1]))  # the same cell again, in another batch than the first

    def batched():
        check = ResultsCheck(items, slots=False)
        for start in range(0, len(bad), 4):
            check.add(bad[start : start + 4])
        check.done()

    whole = _message(lambda: validate_results(bad, items))
    assert _message(batched) == whole
    assert f"results.jsonl row 7 ({bad[6]['item_id']}" in whole and "'f1'" in whole
    assert "row 8" in whole and "'n_pred' must be int64" in whole
    assert f"row {len(bad)}" in whole and "appears twice" in whole


def test_result_batches_are_the_rows_in_order_however_they_are_cut(project):
    cells = cell_columns(project)
    counted = [k for k, n in enumerate(cells.counts) if n]
    public = {i: f"NALANDA-{n}" for n, i in enumerate(dict.fromkeys(cells.item_id), start=1)}
    flags = cells.flags()
    whole = [r for batch in result_batches(cells, counted, public, flags) for r in batch]
    assert len(whole) == len(counted) > 3
    for size in (1, 3, len(counted)):
        batches = list(result_batches(cells, counted, public, flags, size=size))
        assert all(len(b) <= size for b in batches)
        assert [r for b in batches for r in b] == whole
    keys = [(int(r["item_id"].split("-")[1]), r["model"]) for r in whole]
    assert keys == sorted(keys)


def test_a_leak_in_a_streamed_answer_leaves_the_earlier_export_and_numbers_alone(project, tmp_path):
    out = tmp_path / "out"
    export_project(project, out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    numbered = stored_public_ids(project)
    heart = "campbell-p137-fig42-3"
    answer(project, heart, MODELS[1], "desc", ["aorta", f"as in {SOURCE_TITLE}"])
    with pytest.raises(ExportError, match=r"results\.jsonl: contains private text"):
        export_project(project, out)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["out", "proj", *_pdfs(tmp_path)])
    assert stored_public_ids(project) == numbered


def _pdfs(folder) -> list[str]:
    return [p.name for p in folder.iterdir() if p.suffix == ".pdf"]
