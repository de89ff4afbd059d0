"""Reviewer decisions and curators' independent keys.

``review_events`` is append-only: a decision (an approval, a confirmed key, an overridden
score, a comment) is one row with who and when, and undoing it appends an ``undo`` row that
names the row it reverses. Nothing is updated or deleted, so the table *is* the audit trail;
what is in force is worked out from it by :mod:`labeler.review`.

``curator_keys`` holds the key another curator gave an item independently (one per curator
and item, replaced when that curator keys it again), compared with the item's own key by
:mod:`labeler.agreement`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from labeler.errors import LabelerError
from labeler.store.clock import now
from labeler.store.database import Connection, Row, transaction

#: The kinds of row in the audit trail.
EVENT_KINDS = ("approve", "confirm-key", "override", "comment", "undo")


@dataclass(frozen=True)
class NewReviewEvent:
    """One decision as :mod:`labeler.review` hands it to the store (the id and time are
    added there); every stored row is one of these plus its id and time (:class:`ReviewEvent`).

    ``model``/``condition`` name the cell of an override or a cell comment (``None`` for a
    decision about the whole item); ``response_id`` is the answer an override judged (a new
    answer to the cell is not covered by it). ``value`` is an override's score (0–1);
    ``text`` the reason or comment; ``detail`` what the decision was made on (the key's
    fingerprint for ``confirm-key``, the status before an ``approve``); ``undoes`` the id of
    the row an ``undo`` reverses.
    """

    item_id: str
    kind: str
    reviewer: str
    model: str | None = None
    condition: str | None = None
    response_id: int | None = None
    value: float | None = None
    text: str = ""
    detail: str = ""
    undoes: int | None = None


@dataclass(frozen=True)
class ReviewEvent(NewReviewEvent):
    """One row of the audit trail: the decision, its row id and when it was stored."""

    id: int = field(kw_only=True)
    created_at: str = field(kw_only=True)


@dataclass(frozen=True)
class CuratorKey:
    """The names one curator gave an item, keyed without seeing its own key."""

    item_id: str
    curator: str
    names: tuple[str, ...]
    created_at: str


_COLUMNS = tuple(f.name for f in fields(NewReviewEvent))


class ReviewTable:
    """Append to and read the audit trail and the curators' keys."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def append(self, event: NewReviewEvent) -> ReviewEvent:
        """Store one decision (or undo) as a new row; nothing else is ever written."""
        if event.kind not in EVENT_KINDS:
            raise LabelerError(f"unknown review event {event.kind!r}")
        values = [getattr(event, c) for c in _COLUMNS]
        marks = ", ".join("?" for _ in (*_COLUMNS, "created_at"))
        try:
            with transaction(self.db):
                cur = self.db.execute(
                    f"INSERT INTO review_events({', '.join(_COLUMNS)}, created_at) "
                    f"VALUES ({marks})",
                    (*values, now()),
                )
        except sqlite3.IntegrityError as exc:
            raise LabelerError(f"cannot record the decision: {exc}") from None
        assert cur.lastrowid is not None
        return self.get(cur.lastrowid)

    def get(self, event_id: int) -> ReviewEvent:
        """One row by id (a clear error for an id nobody recorded)."""
        row = self.db.execute("SELECT * FROM review_events WHERE id = ?", (event_id,)).fetchone()
        if row is None:
            raise LabelerError(f"no review decision {event_id} (`labeler review log DIR`)")
        return _event(row)

    def events(self, item_id: str | None = None) -> list[ReviewEvent]:
        """The trail in the order it was written, for one item or the whole project."""
        if item_id is None:
            rows = self.db.execute("SELECT * FROM review_events ORDER BY id")
        else:
            rows = self.db.execute(
                "SELECT * FROM review_events WHERE item_id = ? ORDER BY id", (item_id,)
            )
        return [_event(r) for r in rows]

    def set_curator_key(self, item_id: str, curator: str, names: Sequence[str]) -> CuratorKey:
        """Store (or replace) ``curator``'s independent key of ``item_id``."""
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO curator_keys(item_id, curator, names_json, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (item_id, curator) DO UPDATE SET "
                "names_json = excluded.names_json, created_at = excluded.created_at",
                (item_id, curator, json.dumps(list(names), ensure_ascii=False), now()),
            )
        return next(k for k in self.curator_keys(item_id) if k.curator == curator)

    def curator_keys(self, item_id: str | None = None) -> list[CuratorKey]:
        """Every curator's key, for one item or all, by item then curator."""
        sql = "SELECT * FROM curator_keys"
        args: tuple[str, ...] = ()
        if item_id is not None:
            sql, args = sql + " WHERE item_id = ?", (item_id,)
        rows = self.db.execute(sql + " ORDER BY item_id, curator", args)
        return [_curator_key(r) for r in rows]


def _curator_key(row: Row) -> CuratorKey:
    names = tuple(json.loads(row["names_json"]))
    return CuratorKey(row["item_id"], row["curator"], names, row["created_at"])


def _event(row: Row) -> ReviewEvent:
    return ReviewEvent(**{name: row[name] for name in (*_COLUMNS, "id", "created_at")})
