"""The slots15 migration: responses rebuilt without the condition CHECK, answers kept.

A database as the previous release left it (every migration before this one, real rows)
is opened; every answer must survive byte for byte with its id, the indexes must be back,
the slot conditions must be storable and a made-up condition refused by the store.
"""

from __future__ import annotations

import sqlite3

import pytest

from labeler.errors import LabelerError
from labeler.store import NewResponse, Project
from labeler.store.database import _statements
from labeler.store.schema import MIGRATIONS, SCHEMA_VERSION


def _this_migration() -> int:
    """The position of this slice's migration (the integrator may renumber it)."""
    import inspect

    from labeler.store import schema

    source = inspect.getsource(schema)
    comments = [line.strip() for line in source.splitlines() if line.strip().startswith("# ")]
    numbered = [c for c in comments if c.split(":")[0][2:].isdigit()]
    return next(int(c.split(":")[0][2:]) for c in numbered if "slots15" in c) - 1


def _old_database(folder, version: int) -> None:
    (folder / "assets").mkdir(parents=True)
    db = sqlite3.connect(folder / "project.sqlite")
    for migration in MIGRATIONS[:version]:
        for statement in _statements(migration):
            db.execute(statement)
    db.execute(f"PRAGMA user_version={version}")
    db.execute("INSERT INTO items(id, created_at, updated_at) VALUES ('it-1', 't', 't')")
    db.execute("INSERT INTO runs(id, started_at) VALUES (7, 't')")
    for n, condition in enumerate(("blind", "told", "desc", "no-image"), start=1):
        db.execute(
            "INSERT INTO responses(id, item_id, model, condition, request_hash, status,"
            " raw_text, labels_json, parse_ok, input_tokens, cost_usd, run_id, created_at,"
            " asked_subject, parse_notes) VALUES (?, 'it-1', 'm', ?, ?, 'ok', ?, ?, 1, ?,"
            " 0.5, 7, 't', 'heart', 'repaired')",
            (n * 10, condition, f"h{n}", f"raw {n}", '[{"name":"Aorta"}]', n),
        )
    db.commit()
    db.close()


def test_answers_survive_the_rebuild_with_their_ids(tmp_path):
    version = _this_migration()
    _old_database(tmp_path / "p", version)
    before = sqlite3.connect(tmp_path / "p" / "project.sqlite")
    old = before.execute("SELECT * FROM responses ORDER BY id").fetchall()
    before.close()
    with Project.open(tmp_path / "p") as project:
        assert project.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        rows = project.db.execute("SELECT * FROM responses ORDER BY id").fetchall()
        assert [tuple(r)[: len(old[0])] for r in rows] == old
        assert [r["prompt_sha256"] for r in rows] == [None] * 4
        indexes = {
            r[0]
            for r in project.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'responses'"
            )
        }
        assert {"responses_cell", "responses_hash"} <= indexes
        answers = project.responses.latest()
        assert [(a.id, a.condition, a.run_id) for a in answers] == [
            (10, "blind", 7),
            (20, "told", 7),
            (30, "desc", 7),
            (40, "no-image", 7),
        ]
        project.responses.record(NewResponse("it-1", "m", "slots", "h9", "ok"))
        with pytest.raises(LabelerError, match="unknown condition"):
            project.responses.record(NewResponse("it-1", "m", "told-more", "h9", "ok"))
        # the status CHECK is still in SQL
        with pytest.raises(sqlite3.IntegrityError):
            project.db.execute(
                "INSERT INTO responses(item_id, model, condition, request_hash, status,"
                " created_at) VALUES ('it-1', 'm', 'told', 'h', 'fine', 't')"
            )


def test_no_earlier_migration_makes_a_table_that_references_responses():
    """The rebuild drops the old table: with foreign keys on, that would cascade into any
    table that references responses(id). Such tables must come after this migration."""
    earlier = MIGRATIONS[: _this_migration()]
    assert not any("REFERENCES responses" in m for m in earlier)
