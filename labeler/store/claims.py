"""Calls that runners on several machines share: claimed in PostgreSQL, one holder each.

A run on a PostgreSQL project offers every call it planned as a row of ``claims`` (rows
another runner already offered are kept), then takes one before sending it: ``SELECT … FOR
UPDATE SKIP LOCKED`` lets two runners racing for one call never wait for each other, and
only the one that wins the row sends it. A taken claim has a lease (``expires_at``, on the
database server's clock, so machines' clocks do not matter) that its runner renews while it
lives; the claim is marked done in the same transaction that stores the answer. A runner
killed with ``kill -9`` stops renewing, its lease runs out, and another runner takes the call
over. A claim is keyed by its cell, request hash and *basis* — the cell's latest response id
when the call was planned — so a later re-run of a cell (``--retry-failed``) is a new claim.

PostgreSQL only (SQLite has no row locks; a SQLite project keeps its one-run file lock).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from labeler.store.database import Connection, transaction

ClaimKey = tuple[str, str, str, str, int]  # item_id, model, condition, request_hash, basis
_KEY = "item_id = ? AND model = ? AND condition = ? AND request_hash = ? AND basis = ?"
_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"


class Taken(enum.Enum):
    """What :meth:`ClaimTable.take` found."""

    MINE = "mine"  # the caller holds it now: send the call
    DONE = "done"  # answered (by anyone): drop it
    HELD = "held"  # another live runner holds it: look again later


class ClaimTable:
    """Offer, take, renew and finish claims (see the module docstring)."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def bases(self) -> dict[tuple[str, str, str], int]:
        """Each cell's latest response id: the basis of a claim planned now."""
        rows = self.db.execute(
            "SELECT item_id, model, condition, MAX(id) FROM responses "
            "GROUP BY item_id, model, condition"
        )
        return {(r[0], r[1], r[2]): int(r[3]) for r in rows}

    def offer(self, keys: Iterable[ClaimKey]) -> None:
        """Make sure every key has a claim row (rows already offered are left as they are)."""
        with transaction(self.db):
            self.db.executemany(
                "INSERT INTO claims(item_id, model, condition, request_hash, basis) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                list(keys),
            )

    def take(self, key: ClaimKey, holder: str, lease_s: float) -> Taken:
        """Take ``key`` for ``holder`` unless it is done or another live holder has it."""
        with transaction(self.db):
            row = self.db.execute(
                f"SELECT done, holder, expires_at < {_NOW} FROM claims WHERE {_KEY} "
                "FOR UPDATE SKIP LOCKED",
                key,
            ).fetchone()
            if row is None:  # another runner is taking it this very moment
                return Taken.HELD
            done, current, expired = row[0], row[1], row[2]
            if done:
                return Taken.DONE
            if current not in (None, holder) and not expired:
                return Taken.HELD
            self.db.execute(
                f"UPDATE claims SET holder = ?, expires_at = {_NOW} + ? WHERE {_KEY}",
                (holder, lease_s, *key),
            )
            return Taken.MINE

    def finish(self, key: ClaimKey) -> None:
        """Mark ``key`` answered (call inside the transaction that stores the answer)."""
        self.db.execute(f"UPDATE claims SET done = 1 WHERE {_KEY}", key)

    def renew(self, holder: str, lease_s: float) -> int:
        """Extend the lease of every open claim ``holder`` has; returns how many."""
        with transaction(self.db):
            cur = self.db.execute(
                f"UPDATE claims SET expires_at = {_NOW} + ? WHERE holder = ? AND done = 0",
                (lease_s, holder),
            )
        return cur.rowcount

    def release(self, holder: str) -> None:
        """Give back ``holder``'s open claims (a run that stops early), for others to take."""
        with transaction(self.db):
            self.db.execute(
                "UPDATE claims SET holder = NULL, expires_at = NULL WHERE holder = ? AND done = 0",
                (holder,),
            )
