"""The narrow reads views use: one item's latest answers, ids and statuses, the change counter."""

from __future__ import annotations

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.database import is_postgres
from labeler.store.summaries import data_version, item_latest, item_status_counts, item_statuses


def answer(item_id: str, model: str, condition: str, name: str) -> NewResponse:
    return NewResponse(
        item_id,
        model,
        condition,
        f"{item_id}-{model}-{condition}-{name}",
        "ok",
        raw_text=f'{{"labels": [{{"name": "{name}"}}]}}',
        labels=[{"name": name}],
        parse_ok=True,
    )


def test_an_items_latest_answers_are_its_own_newest_per_cell_with_raw_text(tmp_path):
    with Project.create(tmp_path / "p") as project:
        for item_id in ("a", "b"):
            project.items.add(NewItem(item_id=item_id, subject=item_id, key=[KeyEntry("x")]))
        project.responses.record(answer("a", "m/1", "told", "first"))
        project.responses.record(answer("b", "m/1", "told", "other item"))
        project.responses.record(answer("a", "m/1", "told", "re-sent"))
        project.responses.record(answer("a", "m/2", "blind", "second model"))
        latest = item_latest(project, "a")
        assert [(r.model, r.condition, r.labels[0]["name"]) for r in latest] == [
            ("m/1", "told", "re-sent"),
            ("m/2", "blind", "second model"),
        ]
        assert latest[0].raw_text == '{"labels": [{"name": "re-sent"}]}'
        # the same answers as the store's own grouping over the whole project
        assert latest == project.responses.latest(item_ids=["a"])
        assert item_latest(project, "missing") == []


def test_item_statuses_lists_every_item_in_creation_order(tmp_path):
    with Project.create(tmp_path / "p") as project:
        for item_id, status in (("z", "ready"), ("a", "draft"), ("m", "excluded")):
            project.items.add(NewItem(item_id=item_id, subject=item_id, status=status))
        assert item_statuses(project) == [("z", "ready"), ("a", "draft"), ("m", "excluded")]


def test_item_status_counts_count_each_status_and_follow_edits(tmp_path):
    with Project.create(tmp_path / "p") as project:
        assert item_status_counts(project) == {}
        for item_id, status in (("z", "ready"), ("a", "draft"), ("m", "excluded"), ("b", "ready")):
            project.items.add(NewItem(item_id=item_id, subject=item_id, status=status))
        assert item_status_counts(project) == {"ready": 2, "draft": 1, "excluded": 1}
        project.items.update("a", status="ready")
        assert item_status_counts(project) == {"ready": 3, "excluded": 1}


def test_the_change_counter_moves_for_another_connections_commit(tmp_path):
    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="a", subject="heart"))
        before = data_version(project)
        project.items.update("a", subject="the heart")  # this connection's own write
        if is_postgres(project.db):  # a digest of the data: own writes move it too (one refresh)
            assert data_version(project) != before
            before = data_version(project)
        else:  # SQLite's counter ignores this connection's own commits
            assert data_version(project) == before
        with Project.open(tmp_path / "p") as other:
            other.items.update("a", subject="the mammalian heart")
        moved = data_version(project)
        assert moved != before
        assert data_version(project) == moved  # reading it changes nothing
