"""One rule decides which answers count (``labeler.results.answer_counts``), on a real store.

A cell's latest answer counts when the model answered (every status but
``api_error``) and it was given for the item as it is now. Truncated, empty,
refused and unparsable answers are the model's answers: they count, with the
score their names earn.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from labeler.export.exporter import export_project
from labeler.results import answer_counts, counted_results, load_results
from labeler.status import ResponseStatus
from labeler.store import KeyEntry, NewItem, NewResponse, Project

ROOT = Path(__file__).resolve().parents[2]
KEY = [KeyEntry("aorta"), KeyEntry("left atrium")]


def answer(item_id, model, condition, names, status=ResponseStatus.OK, n=0) -> NewResponse:
    return NewResponse(
        item_id,
        model,
        condition,
        f"{item_id}-{model}-{condition}-{n}",
        status,
        labels=[{"name": name, "location_hint": ""} for name in names],
        parse_ok=status == ResponseStatus.OK,
    )


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p", name="count", id_prefix="CNT") as p:
        p.items.add(NewItem(item_id="heart", subject="the heart", key=KEY))
        yield p


def test_every_status_but_api_error_counts_with_the_score_its_names_earn(project):
    record = project.responses.record
    record(answer("heart", "m/ok", "told", ["aorta", "left atrium"]))
    record(answer("heart", "m/trunc", "told", ["aorta"], ResponseStatus.TRUNCATED))
    record(answer("heart", "m/empty", "told", [], ResponseStatus.EMPTY))
    record(answer("heart", "m/refused", "told", [], ResponseStatus.REFUSED))
    record(answer("heart", "m/parse", "told", [], ResponseStatus.PARSE_ERROR))
    record(answer("heart", "m/api", "told", [], ResponseStatus.API_ERROR))
    f1 = {c.model: c.f1 for c in counted_results(project)}
    assert f1 == {
        "m/ok": 1.0,
        "m/trunc": pytest.approx(2 / 3),  # the finished names it kept are scored
        "m/empty": 0.0,
        "m/refused": 0.0,
        "m/parse": 0.0,
    }
    assert len(load_results(project)) == 6  # the API error is still a cell views can show


def test_the_rule_itself():
    for status in ResponseStatus:
        assert answer_counts(status, stale=False) is (status != ResponseStatus.API_ERROR)
        assert answer_counts(status, stale=True) is False


def test_only_the_latest_current_answer_counts_and_a_rerun_counts_again(project):
    record = project.responses.record
    record(answer("heart", "m/a", "told", ["vein"], n=1))
    record(answer("heart", "m/a", "told", ["aorta"], n=2))  # supersedes the first
    assert [c.f1 for c in counted_results(project)] == [pytest.approx(2 / 3)]
    project.items.update("heart", subject="the human heart")  # the answer is now stale
    assert counted_results(project) == []
    record(answer("heart", "m/a", "told", ["aorta", "left atrium"], n=3))  # re-run
    assert [c.f1 for c in counted_results(project)] == [1.0]


def test_the_export_publishes_exactly_the_counted_cells(project, tmp_path):
    project.items.add(NewItem(item_id="lung", subject="the lung", key=[KeyEntry("trachea")]))
    record = project.responses.record
    record(answer("heart", "m/a", "told", ["aorta"]))
    record(answer("heart", "m/a", "no-image", [], ResponseStatus.REFUSED))
    record(answer("heart", "m/b", "told", [], ResponseStatus.API_ERROR))
    record(answer("lung", "m/a", "told", ["trachea"]))
    project.items.update("lung", subject="the lungs")
    export_project(project, tmp_path / "out")
    counted = {(c.public_id, c.model, c.condition): c.f1 for c in counted_results(project)}
    rows = (tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()
    published = {(r["item_id"], r["model"], r["condition"]): r["f1"] for r in map(json.loads, rows)}
    assert published == counted
    assert len(published) == 2  # heart told (2/3) and the refusal (0); not the error, not stale


def test_marker_accuracy_is_scored_for_items_with_markers(project):
    project.items.add(
        NewItem(
            item_id="marked",
            subject="heart, lettered",
            key=[
                KeyEntry("aorta", marker="A"),
                KeyEntry("left atrium", marker="B"),
                KeyEntry("vein"),
            ],
        )
    )
    labels = [
        {"name": "aorta", "location_hint": "at A"},
        {"name": "B: right atrium", "location_hint": ""},
        {"name": "vein", "location_hint": "bottom"},
    ]
    project.responses.record(
        NewResponse("marked", "m/a", "told", "h1", ResponseStatus.OK, labels=labels, parse_ok=True)
    )
    project.responses.record(answer("heart", "m/a", "told", ["aorta"]))
    cells = {c.item_id: c for c in counted_results(project)}
    marked = cells["marked"].markers
    assert marked is not None
    assert (marked.n_markers, marked.correct, marked.wrong) == (2, ["A"], {"B": "right atrium"})
    assert cells["marked"].marker_accuracy == 0.5
    assert cells["heart"].markers is None and cells["heart"].marker_accuracy is None


def test_results_reads_the_store_and_does_not_reach_up_into_export():
    """Layering (#10): results imports no export module and, like the export side, runs no SQL."""
    package = sorted((ROOT / "labeler" / "results").glob("*.py"))
    assert len(package) > 1
    imported = {
        node.module
        for path in package
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not any(m.startswith("labeler.export") for m in imported)
    owned = [
        *package,
        *(ROOT / "labeler" / "analysis").glob("*.py"),
        *(ROOT / "labeler" / "export").glob("*.py"),
    ]
    for path in owned:
        assert ".execute(" not in path.read_text(encoding="utf-8"), path
