"""Review opened cold shows, for every cell, exactly what the reference read gives.

The matrix is built from the summary columns an item at a time (``ui.review.cells``:
each item's positions, its cells indexed when first painted, the filters and row
digests from column slices). Here every cell of a real project — failed calls, parse
errors, stale answers, marker keys, a reviewer's override, a cell never run — is compared
with :func:`labeler.results.load_results` (the export's read), and each filter with the
items it must keep, worked out from those cells independently.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from labeler import review as decisions
from labeler.results import load_results, summaries
from labeler.store import KeyEntry, Project
from tests.ui.factory import answer, build_project
from ui.review.cells import DISAGREEMENT, CellSummary, ReviewData, load_review
from ui.review.matrix import MatrixModel, SummaryRole
from ui.review.style import FAILURE_STATUSES

MODELS = ["m/a", "m/b", "m/c"]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "p"
    with build_project(folder, n_items=14, models=MODELS, images=False) as project:
        first, second, third = (i.id for i in project.items.list()[:3])
        project.items.set_key(  # named markers: its cells get a marker score
            first, [KeyEntry("left atrium", marker="A"), KeyEntry("aorta", marker="B")]
        )
        project.items.update(second, subject="a heart, relabelled")  # its answers go stale
        project.responses.record(answer(second, "m/a", "told", ["aorta"]))  # one current
        decisions.override(project, third, "m/b", "told", 0.25, "reads the arrow", "ana")
        project.responses.record(answer(third, "m/z", "blind", ["petal"]))  # one cell only
    return folder


def test_every_cell_filter_and_label_is_the_reference_reads(qtbot, folder: Path) -> None:
    summaries._SUMMARIES.clear()  # cold: nothing memoised by an earlier read
    snapshot = load_review(folder)
    with Project.open(folder) as project:
        data = ReviewData(project, snapshot)
        reference = {(c.item_id, c.model, c.condition): c for c in load_results(project)}
        items = project.items.list()
    model = MatrixModel()
    model.reset(data, data.filtered("all"))
    assert model.item_ids == [i.id for i in items]

    seen = set()
    for row, item_id in enumerate(model.item_ids):
        for column_number, column in enumerate(model.columns):
            cell = model.data(model.index(row, column_number), SummaryRole)
            expected = reference.get((item_id, column.model, column.condition))
            if expected is None:
                assert cell is None, (item_id, column)
                continue
            seen.add((item_id, column.model, column.condition))
            assert cell == CellSummary(
                expected.response_id, expected.status, expected.parse_ok, expected.stale,
                expected.counts, expected.f1, expected.precision, expected.recall,
                expected.markers,
            ), (item_id, column)  # fmt: skip
    assert seen == set(reference)
    cells = reference.values()
    assert any(c.stale for c in cells) and any(c.override is not None for c in cells)
    assert any(c.markers is not None for c in cells) and any(not c.parse_ok for c in cells)
    assert model.headerData(1, Qt.Orientation.Vertical) == f"2  {items[1].subject}"

    spread: dict[tuple[str, str], list[float]] = {}
    for c in cells:
        if c.status not in FAILURE_STATUSES:
            spread.setdefault((c.item_id, c.condition), []).append(c.f1)
    expected_filters = {
        "all": {i.id for i in items},
        "failures": {c.item_id for c in cells if c.status in FAILURE_STATUSES},
        "parse_errors": {
            c.item_id
            for c in cells
            if c.status == "parse_error" or (c.status == "ok" and not c.parse_ok)
        },
        "different": {i for (i, _), f1 in spread.items() if max(f1) - min(f1) >= DISAGREEMENT},
    }  # fmt: skip
    for name, kept in expected_filters.items():
        assert set(data.filtered(name)) == kept, name
        assert kept and (name == "all" or len(kept) < len(items)), f"{name} tells nothing here"


def test_a_row_digest_moves_exactly_with_what_its_row_shows(qtbot, folder: Path) -> None:
    before = load_review(folder)
    summaries._SUMMARIES.clear()
    again = load_review(folder)
    assert again.rows == before.rows, "the same rows read twice hash alike"
    with Project.open(folder) as project:
        changed = project.items.list()[5].id
        project.responses.record(answer(changed, "m/c", "desc", ["nucleus", "vein"]))
    after = load_review(folder)
    assert {i for i in after.rows if after.rows[i] != before.rows[i]} == {changed}
