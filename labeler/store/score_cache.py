"""The per-cell score cache: each answer's scored result, with what it was computed from.

A row holds one response's result under one rules version (``expert-1``), the
fingerprints of the item's key and of the lexicon rows the cell used, and the result
itself as compact JSON (names, matches with their rule, marker accuracy), with the numbers
a matrix or a leaderboard shows also as columns (F1, precision, recall, marker accuracy
and the marker score's letters), which :meth:`ScoreCacheTable.summary_rows` reads as plain
tuples without the result or the answer's labels. The store
neither computes nor judges fingerprints (:mod:`labeler.scoring.fingerprint` does,
and :mod:`labeler.results` compares them); it keeps rows and reads the columns a
matrix needs. Responses never change once stored, so a row goes stale only when a
fingerprint moves, and a stale row is simply overwritten.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.store.database import Connection, transaction

#: Ids per ``IN (...)`` list: well under SQLite's and PostgreSQL's parameter limits.
BATCH = 900


@dataclass(frozen=True, slots=True)
class CellRow:
    """One cell's latest answer as a matrix reads it (no raw text), with its cached result.

    ``key_fp``, ``lexicon_fp`` and ``result_json`` are ``None`` when nothing is cached
    under the asked rules; ``complete`` is False when the row predates the summary
    columns (migration 14), so a reader that finds it valid stores it again in full.
    """

    id: int
    item_id: str
    model: str
    condition: str
    status: str
    origin: str
    parse_ok: bool
    asked_subject: str | None
    asked_image: str | None
    key_fp: str | None
    lexicon_fp: str | None
    lexicon_state: str | None
    result_json: str | None
    complete: bool = True


#: The columns of :meth:`ScoreCacheTable.summary_rows`, in order.
SUMMARY_COLUMNS = (
    "id",
    "item_id",
    "model",
    "condition",
    "status",
    "parse_ok",
    "asked_subject",
    "asked_image",
    "key_fp",
    "lexicon_state",
    "f1",
    "precision",
    "recall",
    "marker_accuracy",
    "markers_json",
)


@dataclass(frozen=True, slots=True)
class CachedScore:
    """What :meth:`ScoreCacheTable.put_many` stores for one response."""

    response_id: int
    key_fp: str
    lexicon_fp: str
    lexicon_state: str
    f1: float
    marker_accuracy: float | None
    result_json: str
    precision: float
    recall: float
    markers_json: str | None  # the marker score as compact JSON; None: the key has no markers


class ScoreCacheTable:
    """Read the latest answers with their cached scores; store fresh scores."""

    def __init__(self, db: Connection) -> None:
        self.db = db

    def latest_cells(self, rules: str) -> list[CellRow]:
        """Every cell's latest answer (metadata only) with its cached result, oldest first."""
        rows = self.db.execute(
            f"SELECT {_CELL_COLUMNS} FROM latest_answers l"
            " JOIN responses r ON r.id = l.response_id"
            " LEFT JOIN score_cache c ON c.response_id = r.id AND c.rules = ?"
            " ORDER BY r.id",
            (rules,),
        )
        return [_cell_row(r) for r in rows]

    def cells(self, rules: str, response_ids: Sequence[int]) -> list[CellRow]:
        """The given answers as :meth:`latest_cells` reads them (in id order), batched."""
        out: list[CellRow] = []
        for start in range(0, len(response_ids), BATCH):
            part = list(response_ids[start : start + BATCH])
            marks = ", ".join("?" for _ in part)
            out.extend(
                _cell_row(r)
                for r in self.db.execute(
                    f"SELECT {_CELL_COLUMNS} FROM responses r"
                    " LEFT JOIN score_cache c ON c.response_id = r.id AND c.rules = ?"
                    f" WHERE r.id IN ({marks})",
                    [rules, *part],
                )
            )
        out.sort(key=lambda c: c.id)
        return out

    def summary_rows(
        self, rules: str, *, with_result: bool = False, after: int = 0
    ) -> list[Sequence[Any]]:
        """Every cell's latest answer as a plain tuple of :data:`SUMMARY_COLUMNS`, oldest first
        (only answers newer than response id ``after``, when given).

        What a matrix or a leaderboard shows and what judging the cached row needs, and
        nothing else: no result JSON, no labels, no raw text, no row objects. The cached
        columns are NULL where nothing is cached under ``rules``. ``with_result`` adds the
        cached ``result_json`` as a last column, for a reader that publishes the names
        (the export, ``labeler report``). The answers' columns come from
        ``latest_answers`` (:mod:`labeler.store.latest`), one narrow row per cell in id
        order, so no answer is grouped or its wide row read; one primary-key probe per
        cell finds its cached row.
        """
        result = ", c.result_json" if with_result else ""
        rows = self.db.execute(
            "SELECT l.response_id, l.item_id, l.model, l.condition, l.status, l.parse_ok,"
            " l.asked_subject, l.asked_image, c.key_fp, c.lexicon_state, c.f1,"
            f" c.name_precision, c.name_recall, c.marker_accuracy, c.markers_json{result}"
            " FROM latest_answers l"
            " LEFT JOIN score_cache c ON c.response_id = l.response_id AND c.rules = ?"
            " WHERE l.response_id > ? ORDER BY l.response_id",
            (rules, after),
        )
        return rows.fetchall()  # unpacked by position: no per-row objects of ours

    def answers_after(self, response_id: int) -> int:
        """How many answers have an id above ``response_id`` (what a reader who saw answers up
        to it missed, if nothing else changed)."""
        row = self.db.execute("SELECT COUNT(*) FROM responses WHERE id > ?", (response_id,))
        return int(row.fetchone()[0])

    def answers_stamp(self) -> tuple[int, int]:
        """``(how many answers, newest id)``: moves with every answer stored or deleted.

        Answers never change once stored, so a reader that saw the same stamp saw the same
        answers (a summary memo keys on it, with everything else it read).
        """
        row = self.db.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM responses").fetchone()
        return int(row[0]), int(row[1])

    def labels_json(self, response_ids: Sequence[int]) -> Iterator[tuple[int, str]]:
        """``(response id, labels JSON)`` of the given responses (what scoring reads), batched."""
        for start in range(0, len(response_ids), BATCH):
            part = list(response_ids[start : start + BATCH])
            marks = ", ".join("?" for _ in part)
            yield from (
                (int(r[0]), str(r[1]))
                for r in self.db.execute(
                    f"SELECT id, labels_json FROM responses WHERE id IN ({marks})", part
                )
            )

    def put_many(self, rules: str, scores: Iterable[CachedScore]) -> int:
        """Store (or replace) scores under ``rules`` in one transaction; returns how many."""
        rows = [
            (
                s.response_id,
                rules,
                s.key_fp,
                s.lexicon_fp,
                s.lexicon_state,
                s.f1,
                s.marker_accuracy,
                s.result_json,
                s.precision,
                s.recall,
                s.markers_json,
            )
            for s in scores
        ]
        if not rows:
            return 0
        with transaction(self.db):
            self.db.executemany(
                "INSERT INTO score_cache(response_id, rules, key_fp, lexicon_fp, lexicon_state,"
                " f1, marker_accuracy, result_json, name_precision, name_recall, markers_json)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (response_id, rules) DO UPDATE SET key_fp = excluded.key_fp,"
                " lexicon_fp = excluded.lexicon_fp, lexicon_state = excluded.lexicon_state,"
                " f1 = excluded.f1, marker_accuracy = excluded.marker_accuracy,"
                " result_json = excluded.result_json, name_precision = excluded.name_precision,"
                " name_recall = excluded.name_recall, markers_json = excluded.markers_json",
                rows,
            )
        return len(rows)

    def confirm(self, rules: str, checked: Iterable[tuple[str, int]]) -> None:
        """Record ``(lexicon state, response id)`` pairs whose cached score was re-checked valid.

        The next reader of an unchanged lexicon then trusts them without re-checking.
        """
        rows = [(state, response_id, rules) for state, response_id in checked]
        if rows:
            with transaction(self.db):
                self.db.executemany(
                    "UPDATE score_cache SET lexicon_state = ? WHERE response_id = ? AND rules = ?",
                    rows,
                )

    def count(self, rules: str) -> int:
        """How many scores are stored under ``rules``."""
        row = self.db.execute("SELECT COUNT(*) FROM score_cache WHERE rules = ?", (rules,))
        return int(row.fetchone()[0])


_CELL_COLUMNS = (
    "r.id, r.item_id, r.model, r.condition, r.status, r.origin, r.parse_ok,"
    " r.asked_subject, r.asked_image, c.key_fp, c.lexicon_fp, c.lexicon_state, c.result_json,"
    " c.name_precision"
)


def _cell_row(r: Any) -> CellRow:
    rid, item, model, condition, status, origin, parse_ok, subject, image, *cached = r
    key_fp, lexicon_fp, state, result_json, precision = cached
    return CellRow(
        rid, item, model, condition, status, origin, bool(parse_ok), subject, image,
        key_fp, lexicon_fp, state, result_json,
        complete=result_json is None or precision is not None,  # nothing cached, or in full
    )  # fmt: skip
