"""Batch jobs a run submitted to a provider's batch API, and the calls in each.

A job is recorded in the same transaction as its calls, right after the provider
accepted it, so a later process knows every call that is already paid for and waiting:
those are never submitted again, and a finished job is collected by whichever process
looks next. Each collected answer is stored and its call marked collected in one
transaction, so a collection killed half way resumes where it stopped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.store.clock import now
from labeler.store.database import Connection, Row, transaction
from labeler.store.records import NewResponse, dumps
from labeler.store.responses import Cell, ResponseTable


@dataclass(frozen=True)
class BatchCall:
    """One call inside a batch job: its cell, request hash and the image that went out."""

    custom_id: str
    item_id: str
    condition: str
    request_hash: str
    image_width: int | None = None
    image_height: int | None = None
    image_bytes: int | None = None


@dataclass(frozen=True)
class Batch:
    """One submitted job. ``state``: pending | ended | expired | cancelled | failed;
    ``collected_at`` is set once every call in it has a stored answer."""

    id: int
    provider: str
    provider_id: str
    model: str
    model_json: dict[str, Any]
    settings: dict[str, Any]
    state: str
    provider_state: str
    answered: int | None
    requests: int
    run_id: int | None
    submitted_at: str
    checked_at: str | None
    collected_at: str | None


class BatchTable:
    """Record batch jobs and collect their answers."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def add(
        self,
        *,
        provider: str,
        provider_id: str,
        model: str,
        model_json: Mapping[str, Any],
        settings: Mapping[str, Any],
        calls: Sequence[BatchCall],
        run_id: int | None,
    ) -> int:
        """Record a job the provider accepted, with its calls; returns its row id."""
        with transaction(self.db):
            cur = self.db.execute(
                "INSERT INTO batches(provider, provider_id, model, model_json, settings_json,"
                " state, requests, run_id, submitted_at)"
                " VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
                (
                    provider,
                    provider_id,
                    model,
                    dumps(dict(model_json)),
                    dumps(dict(settings)),
                    len(calls),
                    run_id,
                    now(),
                ),
            )
            batch_id = int(cur.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO batch_requests(batch_id, custom_id, item_id, condition,"
                " request_hash, image_width, image_height, image_bytes)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        batch_id,
                        c.custom_id,
                        c.item_id,
                        c.condition,
                        c.request_hash,
                        c.image_width,
                        c.image_height,
                        c.image_bytes,
                    )
                    for c in calls
                ],
            )
        return batch_id

    def jobs(self, *, live_only: bool = False) -> list[Batch]:
        """Every job, newest first; ``live_only``: those not collected yet."""
        sql = "SELECT * FROM batches"
        if live_only:
            sql += " WHERE collected_at IS NULL"
        return [_batch(row) for row in self.db.execute(sql + " ORDER BY id DESC")]

    def get(self, batch_id: int) -> Batch:
        """One job by row id."""
        row = self.db.execute("SELECT * FROM batches WHERE id = ?", (batch_id,)).fetchone()
        if row is None:
            raise KeyError(batch_id)
        return _batch(row)

    def open_calls(self, batch_id: int) -> list[BatchCall]:
        """The calls of a job whose answers are not stored yet."""
        rows = self.db.execute(
            "SELECT custom_id, item_id, condition, request_hash, image_width, image_height,"
            " image_bytes FROM batch_requests WHERE batch_id = ? AND collected = 0"
            " ORDER BY custom_id",
            (batch_id,),
        )
        return [BatchCall(*row) for row in rows]

    def waiting_cells(self) -> set[Cell]:
        """(item, model, condition, request hash) of every call submitted and not collected:
        already paid for, so no run may send it again."""
        rows = self.db.execute(
            "SELECT r.item_id, b.model, r.condition, r.request_hash FROM batch_requests r"
            " JOIN batches b ON b.id = r.batch_id WHERE r.collected = 0"
        )
        return {(r[0], r[1], r[2], r[3]) for r in rows}

    def set_status(
        self, batch_id: int, state: str, provider_state: str, answered: int | None
    ) -> None:
        """What the provider said about the job when it was last asked."""
        with transaction(self.db):
            self.db.execute(
                "UPDATE batches SET state = ?, provider_state = ?, answered = ?, checked_at = ?"
                " WHERE id = ?",
                (state, provider_state, answered, now(), batch_id),
            )

    def store_answer(
        self, batch_id: int, custom_id: str, response: NewResponse, responses: ResponseTable
    ) -> int:
        """Store one call's answer and mark the call collected, in one transaction."""
        with transaction(self.db):
            response_id = responses.record(response)
            self.db.execute(
                "UPDATE batch_requests SET collected = 1, response_id = ?"
                " WHERE batch_id = ? AND custom_id = ?",
                (response_id, batch_id, custom_id),
            )
        return response_id

    def finish(self, batch_id: int) -> None:
        """Every call of the job has its answer stored: the job is done with."""
        with transaction(self.db):
            self.db.execute("UPDATE batches SET collected_at = ? WHERE id = ?", (now(), batch_id))


def _batch(row: Row) -> Batch:
    data = {k: row[k] for k in row.keys()}  # noqa: SIM118 - sqlite3.Row
    data["model_json"] = json.loads(data["model_json"])
    data["settings"] = json.loads(data.pop("settings_json"))
    return Batch(**data)
