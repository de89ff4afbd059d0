"""The ``public_ids`` table: which published number each item has been given.

Only the store runs SQL; the numbering policy (salted order, ``PREFIX-N``
validation) lives in :mod:`labeler.export.ids`, and :mod:`labeler.results` reads
the labels from here without importing the export layer.
"""

from __future__ import annotations

from collections.abc import Mapping

from labeler.store.database import Connection, transaction


def format_public_id(prefix: str, number: int) -> str:
    """``PREFIX-N``: the one spelling of a published item id."""
    return f"{prefix}-{number}"


class PublicIdTable:
    """Read and record item numbers; a number, once given, is never reused for another item."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def numbers(self) -> dict[str, int]:
        """Internal id -> number, for every numbered item."""
        rows = self.db.execute("SELECT item_id, number FROM public_ids")
        return {r["item_id"]: r["number"] for r in rows}

    def labels(self, prefix: str) -> dict[str, str]:
        """Internal id -> ``PREFIX-N`` for every numbered item (writes nothing)."""
        return {i: format_public_id(prefix, n) for i, n in self.numbers().items()}

    def owner(self, number: int) -> str | None:
        """The item that holds ``number``, or ``None``."""
        row = self.db.execute("SELECT item_id FROM public_ids WHERE number = ?", (number,))
        found = row.fetchone()
        return None if found is None else found["item_id"]

    def add(self, numbers: Mapping[str, int]) -> None:
        """Store new numbers (inside the caller's transaction when there is one)."""
        if numbers:
            with transaction(self.db):
                self.db.executemany(
                    "INSERT INTO public_ids(item_id, number) VALUES (?, ?)", numbers.items()
                )

    def set(self, item_id: str, number: int) -> None:
        """Give ``item_id`` exactly ``number`` (replacing any number it had)."""
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO public_ids(item_id, number) VALUES (?, ?) "
                "ON CONFLICT(item_id) DO UPDATE SET number = excluded.number",
                (item_id, number),
            )
