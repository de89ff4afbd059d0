"""Each cell's latest answer, kept as stored state where answers are written.

Responses are append-only and "the answer" of an (item, model, condition) cell is its
newest row. Finding those by grouping every response (``MAX(id) ... GROUP BY``) and
joining back to the wide ``responses`` rows was half of opening Review at 100k answers,
so the ``latest_answers`` table (migration 15) holds one row per cell: the newest
answer's id with the few columns a matrix reads (status, parse flag, what it was asked
about). :func:`note_latest` keeps it, in the transaction that stores the answer; the
upsert only ever moves a cell to a newer id, so two writers racing on one cell leave the
newest (PostgreSQL serialises the conflicting inserts, SQLite all writes). A response is
deleted only with its item, and the row goes with it (``ON DELETE CASCADE``).
"""

from __future__ import annotations

from labeler.store.database import Connection

#: The columns ``latest_answers`` copies from the newest answer of its cell.
COPIED = "item_id, model, condition, status, parse_ok, asked_subject, asked_image"


def note_latest(db: Connection, response_id: int) -> None:
    """Make the just-stored answer ``response_id`` its cell's latest, unless a newer one is."""
    db.execute(
        f"INSERT INTO latest_answers (response_id, {COPIED})"
        f" SELECT id, {COPIED} FROM responses WHERE id = ?"
        " ON CONFLICT (item_id, model, condition) DO UPDATE SET"
        " response_id = excluded.response_id, status = excluded.status,"
        " parse_ok = excluded.parse_ok, asked_subject = excluded.asked_subject,"
        " asked_image = excluded.asked_image"
        " WHERE excluded.response_id > latest_answers.response_id",
        (response_id,),
    )
