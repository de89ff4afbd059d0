"""The project's synonym lexicon rows: a global list plus per-item additions.

Rows are plain ``(canonical, synonym, relation)`` triples; the matching logic
lives in :mod:`labeler.lexicon`, which builds a ``Lexicon`` from these rows.
"""

from __future__ import annotations

from collections.abc import Iterable

from labeler.errors import LabelerError
from labeler.store.clock import now
from labeler.store.database import Connection, transaction

Row = tuple[str, str, str]
RELATIONS = ("same", "distinct")


class LexiconTable:
    """Read and edit lexicon rows; ``item_id=None`` means the global lexicon."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def rows(self, item_id: str | None = None) -> list[Row]:
        """Global rows, or one item's additions when ``item_id`` is given."""
        if item_id is None:
            cur = self.db.execute(
                "SELECT canonical, synonym, relation FROM lexicon WHERE item_id IS NULL ORDER BY id"
            )
        else:
            cur = self.db.execute(
                "SELECT canonical, synonym, relation FROM lexicon WHERE item_id = ? ORDER BY id",
                (item_id,),
            )
        return [tuple(r) for r in cur]

    def item_rows(self) -> dict[str, list[Row]]:
        """Every item's additions at once, keyed by item id."""
        out: dict[str, list[Row]] = {}
        for r in self.db.execute(
            "SELECT item_id, canonical, synonym, relation FROM lexicon "
            "WHERE item_id IS NOT NULL ORDER BY id"
        ):
            out.setdefault(r["item_id"], []).append((r["canonical"], r["synonym"], r["relation"]))
        return out

    def add(
        self, canonical: str, synonym: str, relation: str = "same", item_id: str | None = None
    ) -> bool:
        """Add a row; returns False if it was already there (so undo knows what to remove)."""
        canonical, synonym = canonical.strip(), synonym.strip()
        if not canonical or not synonym:
            raise LabelerError("a lexicon row needs both a canonical name and a synonym")
        if relation not in RELATIONS:
            raise LabelerError(f"relation must be 'same' or 'distinct', not {relation!r}")
        with transaction(self.db):
            cur = self.db.execute(
                "INSERT INTO lexicon(canonical, synonym, relation, item_id, created_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (canonical, synonym, relation, item_id, now()),
            )
        return cur.rowcount == 1

    def add_many(self, rows: Iterable[Row], item_id: str | None = None) -> int:
        """Add rows in one transaction; returns how many were new."""
        with transaction(self.db):
            return sum(self.add(c, s, r or "same", item_id) for c, s, r in rows)

    def remove(
        self, canonical: str, synonym: str, relation: str = "same", item_id: str | None = None
    ) -> bool:
        """Remove a row; returns False if it was not there."""
        with transaction(self.db):
            cur = self.db.execute(
                "DELETE FROM lexicon WHERE canonical = ? AND synonym = ? AND relation = ? "
                "AND COALESCE(item_id, '') = COALESCE(?, '')",
                (canonical, synonym, relation, item_id),
            )
        return cur.rowcount > 0
