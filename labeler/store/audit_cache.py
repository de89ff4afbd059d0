"""The audit cache: each item's share of the report's audits, with what it was computed from.

A row holds one item's value for one audit (``kind``: the shuffled-key control's scores of
the item's answers against the other key it is paired with, or the item's consensus names)
under one rules version, the digest of the inputs it read (answers, key), the fingerprint
of the lexicon components those names reach and the digest of the whole lexicon it was last
checked against. As :mod:`labeler.store.score_cache`, the store neither computes nor judges
fingerprints (:mod:`labeler.results.audits` does); it keeps rows and hands them back, all of
one rules version in one query.

The report that fills it is a reading command, so a write the database refuses (a
read-only file or role, another writer holding the lock) is given up, not raised:
:meth:`AuditCacheTable.put_many` and :meth:`AuditCacheTable.confirm` say whether they
stored, and on SQLite they wait for a lock only briefly.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from labeler.store.database import Connection, is_postgres, transaction

#: How long (ms) a cache write waits for another writer before it is given up.
WRITE_WAIT_MS = 1000
#: The connection's usual wait (``sqlite3.connect(timeout=30)``), restored after.
_USUAL_WAIT_MS = 30_000


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One kept audit value of one item (``value_json`` as the resolver encoded it)."""

    item_id: str
    kind: str
    inputs_fp: str
    lexicon_fp: str
    lexicon_state: str
    value_json: str


class AuditCacheTable:
    """Read every kept audit value of a rules version; store fresh ones when allowed."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def rows(self, rules: str) -> dict[tuple[str, str], AuditRow]:
        """Every kept value under ``rules``, by ``(kind, item id)``: one query."""
        found = self.db.execute(
            "SELECT item_id, kind, inputs_fp, lexicon_fp, lexicon_state, value_json"
            " FROM audit_cache WHERE rules = ?",
            (rules,),
        )
        return {(r[1], r[0]): AuditRow(r[0], r[1], r[2], r[3], r[4], r[5]) for r in found}

    def put_many(self, rules: str, rows: Iterable[AuditRow]) -> bool:
        """Store (or replace) ``rows`` in one transaction; False if the database refused."""
        values = [
            (r.item_id, r.kind, rules, r.inputs_fp, r.lexicon_fp, r.lexicon_state, r.value_json)
            for r in rows
        ]
        if not values:
            return True
        return self._write(
            "INSERT INTO audit_cache(item_id, kind, rules, inputs_fp, lexicon_fp,"
            " lexicon_state, value_json) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (item_id, kind, rules) DO UPDATE SET inputs_fp = excluded.inputs_fp,"
            " lexicon_fp = excluded.lexicon_fp, lexicon_state = excluded.lexicon_state,"
            " value_json = excluded.value_json",
            values,
        )

    def confirm(self, rules: str, checked: Iterable[tuple[str, str, str]]) -> bool:
        """Record ``(lexicon state, kind, item id)`` of kept values re-checked valid under a
        new lexicon, so the next reader trusts them without the per-name check."""
        values = [(state, kind, item_id, rules) for state, kind, item_id in checked]
        if not values:
            return True
        return self._write(
            "UPDATE audit_cache SET lexicon_state = ? WHERE kind = ? AND item_id = ? AND rules = ?",
            values,
        )

    def count(self, rules: str) -> int:
        """How many values are kept under ``rules``."""
        row = self.db.execute("SELECT COUNT(*) FROM audit_cache WHERE rules = ?", (rules,))
        return int(row.fetchone()[0])

    def _write(self, sql: str, values: Sequence[tuple[str, ...]]) -> bool:
        # OperationalError: SQLite's read-only file or lock, PostgreSQL's lock or server
        # state; InternalError / ProgrammingError: PostgreSQL's read-only transaction or a
        # role without the privilege (decision 0023 maps psycopg's errors to these)
        refused: tuple[type[Exception], ...] = (sqlite3.OperationalError,)
        if is_postgres(self.db):
            refused = (sqlite3.OperationalError, sqlite3.InternalError, sqlite3.ProgrammingError)
        try:
            with self._brief_wait(), transaction(self.db):
                self.db.executemany(sql, values)
        except refused:
            return False
        return True

    @contextlib.contextmanager
    def _brief_wait(self) -> Iterator[None]:
        """On SQLite, wait at most :data:`WRITE_WAIT_MS` for the write lock (a report must
        not hang on a run's transaction); PostgreSQL's row locks are not held that long."""
        if is_postgres(self.db) or self.db.in_transaction:
            yield
            return
        self.db.execute(f"PRAGMA busy_timeout = {WRITE_WAIT_MS}")
        try:
            yield
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {_USUAL_WAIT_MS}")
