"""``latest_answers``, each cell's newest answer kept as stored state, on both engines.

It must always hold what grouping every answer gives (``MAX(id)`` per item, model and
condition; ``ResponseTable.latest`` still reads that way): after a second answer for the
same cell, for the slot conditions, when an item goes with its answers, when a late write
of an older answer arrives, and for answers stored before the table existed (the
migration's backfill).
"""

import sqlite3

import pytest

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.database import _statements
from labeler.store.latest import note_latest
from labeler.store.schema import MIGRATIONS
from labeler.store.summaries import item_latest


def answer(item_id: str, model: str, condition: str, status: str = "ok", n: int = 0):
    return NewResponse(
        item_id, model, condition, f"{item_id}-{model}-{condition}-{status}-{n}", status,
        raw_text="raw", labels=[{"name": "Nucleus"}], parse_ok=status == "ok",
    )  # fmt: skip


def stored(project: Project) -> dict[tuple[str, str, str], tuple]:
    rows = project.db.execute(
        "SELECT response_id, item_id, model, condition, status, parse_ok, asked_subject,"
        " asked_image FROM latest_answers"
    )
    return {(r[1], r[2], r[3]): (r[0], r[4], bool(r[5]), r[6], r[7]) for r in rows}


def grouped(project: Project) -> dict[tuple[str, str, str], tuple]:
    """The same, from the answers themselves (what the table stands in for)."""
    return {
        (r.item_id, r.model, r.condition): (
            r.id,
            r.status,
            r.parse_ok,
            r.asked_subject,
            r.asked_image,
        )
        for r in project.responses.latest()
    }


def test_the_table_follows_every_answer_stored_and_every_item_deleted(tmp_path):
    with Project.create(tmp_path / "p") as project:
        for item_id in ("a", "b"):
            project.items.add(NewItem(item_id=item_id, subject=item_id, key=[KeyEntry("x")]))
        first = project.responses.record(answer("a", "m/1", "told"))
        project.responses.record(answer("a", "m/1", "slots"))
        project.responses.record(answer("a", "m/1", "slots-no-image"))
        project.responses.record(answer("b", "m/1", "told", "api_error"))
        assert stored(project) == grouped(project) and len(stored(project)) == 4

        project.items.update("a", subject="a, renamed")  # the next answer is asked anew
        again = project.responses.record(answer("a", "m/1", "told", "parse_error", 1))
        retry = project.responses.record(answer("b", "m/1", "told", n=1))
        latest = stored(project)
        assert latest == grouped(project) and len(latest) == 4
        assert latest["a", "m/1", "told"] == (again, "parse_error", False, "a, renamed", None)
        assert latest["b", "m/1", "told"][:2] == (retry, "ok")
        assert first not in {v[0] for v in latest.values()}  # superseded
        assert [r.id for r in item_latest(project, "a")] == sorted(
            v[0] for k, v in latest.items() if k[0] == "a"
        )

        project.items.delete("b")  # its answers go, and its cells with them
        assert stored(project) == grouped(project)
        assert {k[0] for k in stored(project)} == {"a"}


def test_a_late_write_of_an_older_answer_never_replaces_a_newer_one(tmp_path):
    """Two writers on one cell: whichever commits last, the cell keeps the newer id."""
    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="a", key=[KeyEntry("x")]))
        older = project.responses.record(answer("a", "m/1", "told"))
        newer = project.responses.record(answer("a", "m/1", "told", n=1))
        note_latest(project.db, older)  # the older writer's upsert arriving after
        assert (
            stored(project)["a", "m/1", "told"][0]
            == newer
            == grouped(project)["a", "m/1", "told"][0]
        )


@pytest.mark.sqlite_only
def test_answers_stored_before_the_table_are_backfilled(tmp_path):
    folder = tmp_path / "old"
    (folder / "assets").mkdir(parents=True)
    db = sqlite3.connect(folder / "project.sqlite")
    before = next(n for n, m in enumerate(MIGRATIONS) if "CREATE TABLE latest_answers" in m)
    for script in MIGRATIONS[:before]:  # the schema just before the table came
        for statement in _statements(script):
            db.execute(statement)
    db.execute(f"PRAGMA user_version={before}")
    db.execute(
        "INSERT INTO items(id, subject, created_at, updated_at) VALUES ('it-1', 'heart', 't', 't')"
    )
    for n, (condition, status) in enumerate(
        [("told", "ok"), ("told", "refused"), ("slots", "ok"), ("blind", "api_error")]
    ):
        db.execute(
            "INSERT INTO responses(item_id, model, condition, request_hash, status, parse_ok,"
            " created_at, asked_subject) VALUES ('it-1', 'm', ?, ?, ?, ?, 't', 'heart')",
            (condition, f"h{n}", status, int(status == "ok")),
        )
    db.commit()
    db.close()
    with Project.open(folder) as project:
        latest = stored(project)
        assert latest == grouped(project)
        assert sorted((k[2], v[1]) for k, v in latest.items()) == [
            ("blind", "api_error"), ("slots", "ok"), ("told", "refused")
        ]  # fmt: skip
