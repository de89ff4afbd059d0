"""Model responses and runs.

Responses are append-only: a re-sent cell adds a row, and "the answer" for a
cell is its latest row. That keeps the full audit trail (every raw answer ever
paid for) while export and review read one row per cell.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from labeler.conditions import ALL_CONDITIONS
from labeler.errors import LabelerError
from labeler.status import RESPONSE_STATUSES
from labeler.store.clock import now
from labeler.store.database import Connection, Cursor, Row, transaction
from labeler.store.latest import note_latest
from labeler.store.records import NewResponse, Response, dumps

_JSON_COLUMNS = {"labels": "labels_json", "settings": "settings_json"}

Cell = tuple[str, str, str, str]  # item_id, model, condition, request_hash


class ResponseTable:
    """Record and query responses; one transaction per recorded response."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def start_run(self, config: dict[str, Any]) -> int:
        """Open a run record (models, conditions, items asked for) and return its id."""
        with transaction(self.db):
            cur = self.db.execute(
                "INSERT INTO runs(started_at, config_json) VALUES (?, ?)", (now(), dumps(config))
            )
        return _inserted_id(cur)

    def finish_run(self, run_id: int) -> None:
        """Stamp a run as finished."""
        with transaction(self.db):
            self.db.execute("UPDATE runs SET finished_at = ? WHERE id = ?", (now(), run_id))

    def record(self, response: NewResponse) -> int:
        """Store one response as it arrives; returns its row id."""
        if response.status not in RESPONSE_STATUSES:
            raise LabelerError(f"unknown response status {response.status!r}")
        if response.condition not in ALL_CONDITIONS:  # checked here, not in SQL (decision 0022)
            raise LabelerError(
                f"unknown condition {response.condition!r}; expected one of {ALL_CONDITIONS}"
            )
        # A shallow read: ``dataclasses.asdict`` would deep-copy the labels and settings
        # only to serialise them (a tenth of the runner's own CPU per call).
        values = {f.name: getattr(response, f.name) for f in dataclasses.fields(response)}
        values.update(dataclasses.asdict(values.pop("usage")))  # one column per token count
        columns: list[str] = []
        params: list[Any] = []
        for name, value in values.items():
            if name in _JSON_COLUMNS:
                columns.append(_JSON_COLUMNS[name])
                params.append(dumps(value))
            else:
                columns.append(name)
                params.append(int(value) if isinstance(value, bool) else value)
        columns.append("created_at")
        params.append(now())
        marks = ", ".join("?" for _ in columns)
        with transaction(self.db):
            cur = self.db.execute(
                f"INSERT INTO responses({', '.join(columns)}) VALUES ({marks})", params
            )
            # What the answer was asked about: the item as it is now (answers are stored
            # as they arrive), so a later change of subject or image makes it stale.
            self.db.execute(
                "UPDATE responses SET (asked_subject, asked_image) = "
                "(SELECT subject, question_asset FROM items WHERE id = ?) WHERE id = ?",
                (response.item_id, cur.lastrowid),
            )
            note_latest(self.db, _inserted_id(cur))
        return _inserted_id(cur)

    def latest(
        self,
        *,
        item_ids: Iterable[str] | None = None,
        models: Iterable[str] | None = None,
        conditions: Iterable[str] | None = None,
    ) -> list[Response]:
        """The latest response of every (item, model, condition) cell, filtered."""
        sql = (
            "SELECT r.* FROM responses r JOIN ("
            " SELECT MAX(id) AS id FROM responses GROUP BY item_id, model, condition"
            ") last ON r.id = last.id WHERE 1 = 1"
        )
        sql, args = _filters(sql, "r.", item_ids, models, conditions)
        return [_response(row) for row in self.db.execute(sql + " ORDER BY r.id", args)]

    def latest_ids(self) -> list[tuple[int, str]]:
        """``(response id, item id)`` of every cell's latest response: one cheap grouping query.

        Responses never change once stored, so a caller that keeps answers by id
        (:mod:`labeler.results`) reads only the ids it has not seen.
        """
        rows = self.db.execute(
            "SELECT MAX(id), item_id FROM responses GROUP BY item_id, model, condition"
        )
        return [(row[0], row[1]) for row in rows]

    def raw_text(self, response_id: int) -> str | None:
        """One response's raw answer text (read when a cell is opened, never in bulk)."""
        row = self.db.execute("SELECT raw_text FROM responses WHERE id = ?", (response_id,))
        found = row.fetchone()
        return None if found is None else found[0]

    def settings_counts(self, response_ids: Iterable[int]) -> Counter[tuple[str, str]]:
        """How many of the given responses were asked with each ``(model, settings JSON)``.

        Counted in SQL, batched: an export lists the distinct sets, not every answer's.
        """
        ids = list(response_ids)
        counts: Counter[tuple[str, str]] = Counter()
        for start in range(0, len(ids), 900):
            part = ids[start : start + 900]
            rows = self.db.execute(
                "SELECT model, settings_json, COUNT(*) FROM responses"
                f" WHERE id IN ({', '.join('?' for _ in part)}) GROUP BY model, settings_json",
                part,
            )
            for model, settings, n in rows:
                counts[(model, settings)] += n
        return counts

    def history(self, item_id: str, model: str, condition: str) -> list[Response]:
        """Every response ever stored for one cell, oldest first."""
        rows = self.db.execute(
            "SELECT * FROM responses WHERE item_id = ? AND model = ? AND condition = ? ORDER BY id",
            (item_id, model, condition),
        )
        return [_response(r) for r in rows]

    def cells_with_status(self, statuses: Iterable[str]) -> set[Cell]:
        """(item, model, condition, request hash) of every response in one of ``statuses``.

        Resume is decided per cell *and* hash: the same request text for another
        cell (two items with identical subject and image) must not count as done.
        """
        statuses = list(statuses)
        if not statuses:
            return set()
        marks = ", ".join("?" for _ in statuses)
        rows = self.db.execute(
            "SELECT DISTINCT item_id, model, condition, request_hash FROM responses"
            f" WHERE status IN ({marks})",
            statuses,
        )
        return {(r[0], r[1], r[2], r[3]) for r in rows}

    def run_errors(self, run_id: int, limit: int = 3) -> list[tuple[str, str]]:
        """One run's commonest error texts, with the model that got each, commonest first."""
        rows = self.db.execute(
            "SELECT model, error, COUNT(*) AS n FROM responses "
            "WHERE run_id = ? AND error IS NOT NULL "
            "GROUP BY model, error ORDER BY n DESC LIMIT ?",
            (run_id, limit),
        )
        return [(r["model"], r["error"]) for r in rows]

    def models(self) -> list[str]:
        """Every model with at least one stored response."""
        return [r[0] for r in self.db.execute("SELECT DISTINCT model FROM responses ORDER BY 1")]


def _filters(sql: str, prefix: str, item_ids, models, conditions) -> tuple[str, list[Any]]:
    args: list[Any] = []
    for column, values in (("item_id", item_ids), ("model", models), ("condition", conditions)):
        if values is not None:
            values = list(values)
            sql += f" AND {prefix}{column} IN ({', '.join('?' for _ in values) or 'NULL'})"
            args += values
    return sql, args


def _response(row: Row) -> Response:
    data = {k: row[k] for k in row.keys()}  # noqa: SIM118 - sqlite3.Row
    data["labels"] = json.loads(data.pop("labels_json"))
    data["settings"] = json.loads(data.pop("settings_json"))
    data["parse_ok"] = bool(data["parse_ok"])
    return Response(**data)


def _inserted_id(cur: Cursor) -> int:
    """The id of the row an INSERT on ``cur`` made (sqlite3 types ``lastrowid`` as optional)."""
    assert cur.lastrowid is not None, "an INSERT sets lastrowid"
    return int(cur.lastrowid)
