"""The PostgreSQL connection takes the store's SQLite-dialect SQL and answers as sqlite3 does."""

import sqlite3

import pytest

from labeler.store.database import _statements, connect, connect_postgres, schema_version
from labeler.store.postgres import PgConnection, ddl, translate
from labeler.store.schema import MIGRATIONS, SCHEMA_VERSION


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path, pg_server):
    """A migrated project database on each engine."""
    if request.param == "sqlite":
        conn = connect(tmp_path / "project.sqlite")
    else:
        conn = connect_postgres(pg_server.database())
    yield conn
    conn.close()


def test_translation_leaves_quoted_text_alone():
    sql = "SELECT '50% sure?' AS a, name FROM t WHERE name LIKE ? AND x = ?"
    assert translate(sql) == (
        "SELECT '50%% sure?' AS a, name FROM t WHERE name ILIKE %s AND x = %s"
    )
    assert translate("BEGIN IMMEDIATE") == "BEGIN"
    assert "DOUBLE PRECISION" in ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, x REAL)")
    assert "rowid BIGINT GENERATED ALWAYS AS IDENTITY" in ddl("CREATE TABLE k (name TEXT)")


def test_both_engines_answer_the_same(db):
    cur = db.execute(
        "INSERT INTO runs(started_at, config_json) VALUES (?, ?)", ("t0", '{"q": "50% sure?"}')
    )
    first = cur.lastrowid
    second = db.execute("INSERT INTO runs(started_at) VALUES (?)", ("t1",)).lastrowid
    assert (first, second) == (1, 2)
    row = db.execute("SELECT * FROM runs WHERE id = ?", (first,)).fetchone()
    assert row["config_json"] == '{"q": "50% sure?"}' and row[0] == 1
    assert row.keys() == ["id", "started_at", "finished_at", "config_json"]
    assert tuple(row) == (1, "t0", None, '{"q": "50% sure?"}')
    # SUM of integers is an int, LIKE ignores ASCII case, NULL stays None
    total = db.execute("SELECT SUM(id), COUNT(*) FROM runs").fetchone()
    assert (total[0], total[1]) == (3, 2) and isinstance(total[0], int)
    db.execute(
        "INSERT INTO items(id, subject, clip_x0, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
        ("it-1", "Human Heart", 72.123456789012, "t", "t"),
    )
    found = db.execute("SELECT subject, clip_x0 FROM items WHERE subject LIKE ?", ("%heart%",))
    assert [tuple(r) for r in found] == [("Human Heart", 72.123456789012)]  # 64-bit floats
    # a broken constraint is sqlite3's IntegrityError on both engines
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO items(id, created_at, updated_at) VALUES (?, ?, ?)", ("it-1", "t", "t")
        )
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO key_entries(item_id, position, name) VALUES (?, ?, ?)", ("none", 0, "x")
        )


def test_an_older_postgresql_database_is_migrated_keeping_its_rows(pg_server):
    url = pg_server.database()
    old = PgConnection(url)
    assert old.schema_version() == 0  # a new database
    old.execute("BEGIN")
    for migration in MIGRATIONS[:-1]:
        for statement in _statements(migration):
            old.execute(ddl(statement))
    old.set_schema_version(len(MIGRATIONS) - 1)
    old.execute(
        "INSERT INTO items(id, subject, created_at, updated_at) VALUES ('it-1', 'heart', 't', 't')"
    )
    old.execute("COMMIT")
    old.close()
    db = connect_postgres(url)
    assert schema_version(db) == SCHEMA_VERSION
    assert db.execute("SELECT subject FROM items").fetchone()["subject"] == "heart"
    db.close()
