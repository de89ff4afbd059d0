"""The curator's slot order of an item: which key entries are numbered, and in what order.

A slot question numbers an item's erased labels 1…n in reading order (``labeler.slots``); a
curator may reorder or drop slots. The row keeps the key-entry positions in slot order, the
dropped ones, and a digest of the key geometry the order was made for, so an order made for
an older key (entries merged, split or re-harvested) is recognised and not misapplied.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from labeler.store.clock import now
from labeler.store.database import Connection, transaction


@dataclass(frozen=True)
class SlotOrder:
    """Key-entry positions (0-based indexes into the item's key) in slot order, and dropped."""

    item_id: str
    order: tuple[int, ...]
    dropped: tuple[int, ...]
    key_digest: str
    updated_at: str


class SlotOrderTable:
    """Read, write and clear items' slot orders (one row per item, replaced on change)."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def get(self, item_id: str) -> SlotOrder | None:
        """The stored order of ``item_id``, or None when it follows reading order."""
        row = self.db.execute("SELECT * FROM slot_orders WHERE item_id = ?", (item_id,)).fetchone()
        if row is None:
            return None
        return SlotOrder(
            row["item_id"],
            tuple(json.loads(row["order_json"])),
            tuple(json.loads(row["dropped_json"])),
            row["key_digest"],
            row["updated_at"],
        )

    def set(
        self, item_id: str, order: tuple[int, ...], dropped: tuple[int, ...], key_digest: str
    ) -> None:
        """Store ``item_id``'s order (replacing any earlier one)."""
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO slot_orders(item_id, order_json, dropped_json, key_digest, "
                "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (item_id) DO UPDATE SET "
                "order_json = excluded.order_json, dropped_json = excluded.dropped_json, "
                "key_digest = excluded.key_digest, updated_at = excluded.updated_at",
                (item_id, json.dumps(list(order)), json.dumps(list(dropped)), key_digest, now()),
            )

    def clear(self, item_id: str) -> None:
        """Forget ``item_id``'s order: its slots follow reading order again."""
        with transaction(self.db):
            self.db.execute("DELETE FROM slot_orders WHERE item_id = ?", (item_id,))
