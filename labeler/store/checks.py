"""Residual-label checks: which key names were still readable in an item's question.

One row per item, replaced whenever the question is re-checked (a re-erase makes a new
question). The row remembers which question image it checked (its asset name), so a check of
an older question never vouches for a newer one, and the curator's override (who, why, when)
is kept with it: an override answers one check, not every later one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from labeler.store.clock import now
from labeler.store.database import Connection, Row, transaction


@dataclass(frozen=True)
class ResidualCheck:
    """The outcome of one check: names still readable (empty: clean) and any override."""

    item_id: str
    readable: tuple[str, ...]
    method: str  # "pdf-text" or "pdf-text+ocr": what was read
    read_text: str  # the words read (so a changed key is re-checked without reading again)
    checked_at: str
    question: str | None  # the question asset checked
    override_by: str | None = None
    override_why: str | None = None
    override_at: str | None = None


class ResidualCheckTable:
    """Read and write residual-label checks."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def record(
        self,
        item_id: str,
        readable: list[str],
        *,
        method: str,
        read_text: str,
        question: str | None,
    ) -> ResidualCheck:
        """Store a fresh check of ``item_id``'s current question (clears any override)."""
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO residual_checks(item_id, readable_json, read_text, "
                "method, checked_at, question) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(item_id) DO UPDATE SET readable_json = excluded.readable_json, "
                "read_text = excluded.read_text, method = excluded.method, "
                "checked_at = excluded.checked_at, question = excluded.question, "
                "override_by = NULL, override_why = NULL, override_at = NULL",
                (item_id, json.dumps(readable), read_text, method, now(), question),
            )
        found = self.get(item_id)
        assert found is not None
        return found

    def get(self, item_id: str) -> ResidualCheck | None:
        """The item's latest check, or ``None`` if it was never checked."""
        row = self.db.execute(
            "SELECT * FROM residual_checks WHERE item_id = ?", (item_id,)
        ).fetchone()
        return _check(row) if row is not None else None

    def all(self) -> dict[str, ResidualCheck]:
        """Every item's latest check, by item id."""
        return {r["item_id"]: _check(r) for r in self.db.execute("SELECT * FROM residual_checks")}

    def override(self, item_id: str, *, why: str, by: str) -> None:
        """Record that the curator accepts this check's readable names (who, why, now)."""
        with transaction(self.db):
            self.db.execute(
                "UPDATE residual_checks SET override_by = ?, override_why = ?, override_at = ? "
                "WHERE item_id = ?",
                (by, why, now(), item_id),
            )


def _check(row: Row) -> ResidualCheck:
    return ResidualCheck(
        item_id=row["item_id"],
        readable=tuple(json.loads(row["readable_json"])),
        method=row["method"],
        read_text=row["read_text"],
        checked_at=row["checked_at"],
        question=row["question"],
        override_by=row["override_by"],
        override_why=row["override_why"],
        override_at=row["override_at"],
    )
