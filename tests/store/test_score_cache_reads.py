"""The score cache's summary reads, on both engines: latest answers only, columns by position.

``summary_rows`` is what Review, the Leaderboard and Curate's item list read per cell, so it
must give each cell's newest answer with its cached numbers (NULL where nothing is cached),
and ``cells`` the same answers as ``latest_cells`` for the ones a reader must resolve.
"""

from __future__ import annotations

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.score_cache import SUMMARY_COLUMNS, CachedScore

RULES = "expert-test"


def answer(item_id: str, model: str, name: str) -> NewResponse:
    return NewResponse(
        item_id, model, "told", f"{item_id}-{model}-{name}", "ok",
        raw_text=name, labels=[{"name": name}], parse_ok=True,
    )  # fmt: skip


def score(response_id: int, f1: float, markers: str | None = None) -> CachedScore:
    return CachedScore(
        response_id, "k", "l", "s", f1, 0.5 if markers else None, "{}", 0.25, 0.75, markers
    )


def test_summary_rows_give_each_cells_newest_answer_with_its_cached_columns(tmp_path):
    with Project.create(tmp_path / "p") as project:
        for item_id in ("a", "b"):
            project.items.add(NewItem(item_id=item_id, subject=item_id, key=[KeyEntry("x")]))
        old = project.responses.record(answer("a", "m/1", "first"))
        new = project.responses.record(answer("a", "m/1", "again"))
        other = project.responses.record(answer("b", "m/1", "other"))
        project.score_cache.put_many(
            RULES, [score(old, 0.1), score(new, 0.9, '[0.5,2,["A"],{},["B"]]')]
        )
        rows = {
            r[0]: dict(zip(SUMMARY_COLUMNS, r, strict=True))
            for r in project.score_cache.summary_rows(RULES)
        }
        assert sorted(rows) == [new, other]  # the older answer of the cell is not a cell
        assert rows[new] == {
            "id": new, "item_id": "a", "model": "m/1", "condition": "told", "status": "ok",
            "parse_ok": 1, "asked_subject": "a", "asked_image": None, "key_fp": "k",
            "lexicon_state": "s", "f1": 0.9, "precision": 0.25, "recall": 0.75,
            "marker_accuracy": 0.5, "markers_json": '[0.5,2,["A"],{},["B"]]',
        }  # fmt: skip
        assert [rows[other][c] for c in ("key_fp", "f1", "precision", "markers_json")] == [None] * 4
        # another rules version has nothing cached
        assert all(r[10] is None for r in project.score_cache.summary_rows("expert-other"))
        cells = project.score_cache.cells(RULES, [other, new])
        assert [c.id for c in cells] == [new, other]
        assert cells == [c for c in project.score_cache.latest_cells(RULES)]
        assert cells[0].complete and cells[1].complete and cells[0].result_json == "{}"
