"""Opening a project's database — SQLite (the default) or PostgreSQL — and its transactions.

SQLite: WAL lets the GUI read while a run worker writes; foreign keys are off by default in
SQLite and must be switched on per connection; ``isolation_level=None`` hands transaction
control to :func:`transaction` so a write is exactly one ``BEGIN IMMEDIATE … COMMIT``.

PostgreSQL (:mod:`labeler.store.postgres`): the same store code runs through
:class:`~labeler.store.postgres.PgConnection`, in autocommit mode, with the same explicit
``BEGIN … COMMIT`` from :func:`transaction`. :class:`Connection` is the surface both give.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol

from labeler.errors import ProjectError
from labeler.store.postgres import PgConnection, ddl
from labeler.store.schema import MIGRATIONS, SCHEMA_VERSION

#: A result row: ``sqlite3.Row`` or :class:`labeler.store.postgres.Row`, both read by
#: position or by column name and both with ``keys()``.
Row = Any


class Cursor(Protocol):
    """What a statement returns on either engine."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The part of ``sqlite3.Connection`` the store uses; ``PgConnection`` gives the same."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> Cursor: ...

    def close(self) -> None: ...


def connect(path: Path) -> sqlite3.Connection:
    """Open (or create) the SQLite database and bring its schema up to date."""
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
    except sqlite3.DatabaseError as exc:
        raise ProjectError(f"{path} is not a Labeler project database: {exc}") from None
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA synchronous=NORMAL")
    migrate(db, str(path))
    return db


def connect_postgres(url: str) -> PgConnection:
    """Open a PostgreSQL project database and bring its schema up to date."""
    db = PgConnection(url)
    migrate(db, url)
    return db


def is_postgres(db: Connection) -> bool:
    """Whether ``db`` is a PostgreSQL connection (claims, ``SKIP LOCKED``: PostgreSQL only)."""
    return isinstance(db, PgConnection)


def schema_version(db: Connection) -> int:
    """How many migrations ``db`` has had."""
    if isinstance(db, PgConnection):
        return db.schema_version()
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def data_version(db: Connection) -> int:
    """A number that changes when another connection commits to the project.

    Cheap, so a window can poll it to notice a CLI run's answers or a teammate's
    edits. SQLite's ``PRAGMA data_version`` ignores this connection's own commits;
    PostgreSQL has no such counter, so there it is :func:`content_digest` (own commits
    change it too, which costs one extra refresh).
    """
    if isinstance(db, PgConnection):
        return content_digest(db)
    return int(db.execute("PRAGMA data_version").fetchone()[0])


def content_digest(db: Connection) -> int:
    """A digest of what the views show: the newest answer and review decision, the items'
    edit versions, the lexicon's rows. It ignores the score cache, which the window's own
    workers fill through their own connections, so a cache write is never taken for a
    teammate's change."""
    row = db.execute(
        "SELECT (SELECT COALESCE(MAX(id), 0) FROM responses) AS answers,"
        " (SELECT COALESCE(MAX(id), 0) FROM review_events) AS decisions,"
        " (SELECT COUNT(*) FROM items) AS items,"
        " (SELECT COALESCE(SUM(version), 0) FROM items) AS edits,"
        " (SELECT COUNT(*) FROM lexicon) AS terms,"
        " (SELECT COALESCE(MAX(id), 0) FROM lexicon) AS newest_term"
    ).fetchone()
    return hash(tuple(int(v) for v in row or ())) & 0x7FFFFFFFFFFFFFFF


def migrate(db: Connection, where: str) -> None:
    """Apply missing migrations, one transaction each; refuse newer databases."""
    version = schema_version(db)
    if version > SCHEMA_VERSION:
        raise ProjectError(
            f"{where} was written by a newer Labeler (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade Labeler to open it"
        )
    for number in range(version, SCHEMA_VERSION):
        with transaction(db):
            pg = isinstance(db, PgConnection)
            for statement in _statements(MIGRATIONS[number]):
                db.execute(ddl(statement) if pg else statement)
            if isinstance(db, PgConnection):
                db.set_schema_version(number + 1)
                db.reset_identities()  # a table rebuilt with its rows (migration 9) keeps its ids
            else:
                db.execute(f"PRAGMA user_version={number + 1}")


def tables(db: Connection) -> list[str]:
    """The project's tables; on SQLite in the order they were created (parents first)."""
    if isinstance(db, PgConnection):
        return db.tables()
    rows = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
        "ESCAPE '\\' ORDER BY rowid"
    )
    return [r[0] for r in rows]


def columns(db: Connection, table: str) -> list[str]:
    """``table``'s columns in order (PostgreSQL's hidden ``rowid`` left out)."""
    if isinstance(db, PgConnection):
        return db.columns(table)
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


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
def transaction(db: Connection) -> Iterator[Connection]:
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
