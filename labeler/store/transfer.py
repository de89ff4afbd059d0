"""Move a project's database between SQLite and PostgreSQL (``labeler migrate``).

Both ends are first brought to this Labeler's schema by the shared migrations, so a copy is
row by row, table by table: parents before children (SQLite's creation order), each table in
its rows' original order (``rowid``, or ``id`` where PostgreSQL has an identity), every id
kept. The whole copy is one transaction on the target; on PostgreSQL the identities then
continue after the copied ids. The folder is switched over only after the copy committed:
the pointer file (or SQLite file) goes in first, the old one is renamed ``*.migrated``, so
an interrupted migration leaves the project readable from its old database.
"""

from __future__ import annotations

import os
from pathlib import Path

from labeler.errors import ProjectError
from labeler.store.database import Connection, columns, connect, tables, transaction
from labeler.store.postgres import PgConnection
from labeler.store.project import (
    DB_NAME,
    POINTER_NAME,
    database_url,
    is_project,
    new_postgres_database,
    open_database,
    write_pointer,
)

BATCH = 1000


def copy_rows(source: Connection, target: Connection) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; rows per table."""
    sqlite_side = target if isinstance(source, PgConnection) else source
    order = [t for t in tables(sqlite_side) if t in set(tables(source)) & set(tables(target))]
    copied: dict[str, int] = {}
    with transaction(target):
        for table in order:
            wanted = set(columns(target, table))
            names = [c for c in columns(source, table) if c in wanted]
            listed = ", ".join(names)
            key = _order_key(source, table)
            cursor = source.execute(f"SELECT {listed} FROM {table} ORDER BY {key}")
            rows = [tuple(r) for r in cursor]
            marks = ", ".join("?" for _ in names)
            for start in range(0, len(rows), BATCH):
                target.executemany(
                    f"INSERT INTO {table}({listed}) VALUES ({marks})", rows[start : start + BATCH]
                )
            copied[table] = len(rows)
        if isinstance(target, PgConnection):
            target.reset_identities()
    return copied


def _order_key(db: Connection, table: str) -> str:
    if isinstance(db, PgConnection) and table in db.id_tables():
        return "id"
    return "rowid"


def to_postgres(folder: str | Path, url: str) -> dict[str, int]:
    """Copy the SQLite project in ``folder`` into the empty database ``url`` and point the
    folder at it (``project.sqlite`` is kept as ``project.sqlite.migrated``)."""
    folder = Path(folder)
    _check_project(folder)
    if database_url(folder) is not None:
        raise ProjectError(f"{folder} is already on PostgreSQL; move it back with --to sqlite")
    source = open_database(folder)
    try:
        target = new_postgres_database(url)
        try:
            with transaction(source):  # no one writes while the copy is made
                copied = copy_rows(source, target)
        finally:
            target.close()
    finally:
        source.close()
    write_pointer(folder, url)
    os.replace(folder / DB_NAME, folder / f"{DB_NAME}.migrated")
    return copied


def to_sqlite(folder: str | Path) -> dict[str, int]:
    """Copy the PostgreSQL project ``folder`` points at into ``folder/project.sqlite`` and
    make that its database (``project.toml`` is kept as ``project.toml.migrated``; the
    PostgreSQL database itself is left as it is, for teammates to finish with)."""
    folder = Path(folder)
    _check_project(folder)
    if database_url(folder) is None:
        raise ProjectError(f"{folder} is already a SQLite project")
    if (folder / DB_NAME).exists():
        raise ProjectError(f"{folder / DB_NAME} exists; move it away first")
    partial = folder / f"{DB_NAME}.partial"
    for leftover in folder.glob(f"{DB_NAME}.partial*"):
        leftover.unlink()
    source = open_database(folder)
    try:
        target = connect(partial)
        try:
            with transaction(source):  # one snapshot of the teammates' database
                source.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                copied = copy_rows(source, target)
        finally:
            target.close()
    finally:
        source.close()
    os.replace(partial, folder / DB_NAME)
    os.replace(folder / POINTER_NAME, folder / f"{POINTER_NAME}.migrated")
    return copied


def _check_project(folder: Path) -> None:
    if not is_project(folder):
        raise ProjectError(f"{folder} is not a Labeler project")
