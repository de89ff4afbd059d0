"""Opening the SQLite file with the settings every connection needs.

WAL lets the GUI read while a run worker writes; foreign keys are off by
default in SQLite and must be switched on per connection; ``isolation_level=None``
hands transaction control to :func:`transaction` so a write is exactly one
``BEGIN IMMEDIATE … COMMIT``.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from labeler.errors import ProjectError
from labeler.store.schema import MIGRATIONS, SCHEMA_VERSION


def connect(path: Path) -> sqlite3.Connection:
    """Open (or create) the database and bring its schema up to date."""
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{path} is not a Labeler project database: {exc}") from None
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA synchronous=NORMAL")
    migrate(db, path)
    return db


def data_version(db: sqlite3.Connection) -> int:
    """A number that changes when *another* connection commits to the database.

    Cheap (no table is read), so a window can poll it to notice a CLI run's
    answers; this connection's own commits leave it unchanged.
    """
    return int(db.execute("PRAGMA data_version").fetchone()[0])


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Apply missing migrations, one transaction each; refuse newer databases."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ProjectError(
            f"{path} was written by a newer Labeler (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade Labeler to open it"
        )
    for number in range(version, SCHEMA_VERSION):
        with transaction(db):
            for statement in _statements(MIGRATIONS[number]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version={number + 1}")


def _statements(script: str) -> list[str]:
    """Split a migration into statements (``executescript`` would commit early)."""
    parts, current = [], []
    for line in script.splitlines():
        if line.strip().startswith("--"):
            continue
        current.append(line)
        if sqlite3.complete_statement("\n".join(current)):
            parts.append("\n".join(current).strip())
            current = []
    return [p for p in parts if p]


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction; nested uses join the outer one via a savepoint."""
    if db.in_transaction:
        db.execute("SAVEPOINT nested")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK TO nested")
            db.execute("RELEASE nested")
            raise
        db.execute("RELEASE nested")
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
