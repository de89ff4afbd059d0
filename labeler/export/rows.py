"""results.jsonl rows: one per exported (item, model, condition) cell.

Rows carry exactly :data:`~labeler.export.schema.RESULT_NAMES`, in that order,
and are sorted by public number, model, then the card's condition order, so
re-exporting unchanged data gives byte-identical files. They are made in batches
(:func:`result_batches`) for the export to stream to its staging folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from labeler.export.schema import SLOT_FIELD
from labeler.prompts import ALL_CONDITIONS
from labeler.results import CellColumns, ItemFlags
from labeler.scoring.flags import column_flags

Row = dict[str, Any]
#: Rows made, checked and written at a time: enough that per-batch work is C-level passes,
#: few enough that the rows in hand stay a few megabytes whatever the export's size.
BATCH_ROWS = 2000


#: A batch of rows as columns: field name -> its values, one per row, in schema order.
Columns = dict[str, list[Any]]
#: The item's fields every results row repeats (and must repeat exactly): the same on every
#: row of one item, so encoded once per item (:func:`~labeler.export.encode.encode_columns`).
PER_ITEM = ("key_names", "subject", "tier", "unsolved_core", "recitable")


def result_batches(
    cells: CellColumns,
    positions: Iterable[int],
    public_ids: Mapping[str, str],
    flags: Mapping[str, ItemFlags],
    slot_accuracy: Mapping[int, float] | None = None,
    size: int = BATCH_ROWS,
) -> Iterator[list[Row]]:
    """:func:`result_columns` as rows (dicts), batch by batch."""
    for columns in result_columns(cells, positions, public_ids, flags, slot_accuracy, size):
        yield rows_of(columns)


def result_columns(
    cells: CellColumns,
    positions: Iterable[int],
    public_ids: Mapping[str, str],
    flags: Mapping[str, ItemFlags],
    slot_accuracy: Mapping[int, float] | None = None,
    size: int = BATCH_ROWS,
) -> Iterator[Columns]:
    """The rows for the cells at ``positions`` of ``cells`` whose item has a public id, in
    publication order, ``size`` at a time, each batch as columns (the internal id never
    appears).

    Rows are made straight from the columns (:func:`labeler.results.cell_columns`), with
    ``flags`` the items' card flags (:func:`card_flags`). The positions are put in order
    first (:func:`publication_order`); each batch is made when it is asked for, so a
    caller that writes and drops each batch never holds the rows of the whole export. The
    export checks, searches, summarises and encodes the columns as they are, no dict per
    row. With ``slot_accuracy`` (response id → accuracy; an export with
    ``--include-slots``) every row gets the ``slot_accuracy`` field, null outside the slot
    conditions. An item's key-name list is one list shared by its rows: never mutate it.
    """
    ordered = publication_order(cells, positions, public_ids)
    unflagged = ItemFlags(unsolved_core=True, recitable=False)
    # what every row of an item repeats, looked up once per item
    about: dict[str, tuple[str, list[str], str, str, bool, bool]] = {}
    for item in {cells.item_id[k] for k in ordered}:
        found, f = cells.items[item], flags.get(item, unflagged)
        about[item] = (
            public_ids[item],
            list(cells.key_names[item]),
            found.subject,
            found.tier,
            bool(f.unsolved_core),
            bool(f.recitable),
        )
    for start in range(0, len(ordered), size):
        part = ordered[start : start + size]

        def pick(column: Sequence[Any], part: list[int] = part) -> list[Any]:
            return list(map(column.__getitem__, part))

        public, names, subject, tier, unsolved, recitable = map(
            list, zip(*map(about.__getitem__, pick(cells.item_id)), strict=True)
        )
        columns: Columns = {
            "item_id": public,
            "model": pick(cells.model),
            "condition": pick(cells.condition),
            "f1": list(map(float, pick(cells.f1))),
            "precision": list(map(float, pick(cells.precision))),
            "recall": list(map(float, pick(cells.recall))),
            "n_pred": list(map(int, pick(cells.n_pred))),
            "n_key": list(map(int, pick(cells.n_key))),
            "predicted_names": list(map(list, pick(cells.predicted_names))),
            "key_names": names,
            "subject": subject,
            "tier": tier,
            "unsolved_core": unsolved,
            "recitable": recitable,
            "parse_ok": list(map(bool, pick(cells.parse_ok))),
        }
        if slot_accuracy is not None:
            columns[SLOT_FIELD.name] = list(map(slot_accuracy.get, pick(cells.response_id)))
        yield columns


def rows_of(columns: Columns) -> list[Row]:
    """The rows (dicts, fields in column order) a batch of columns holds."""
    names = list(columns)
    return [dict(zip(names, values, strict=True)) for values in zip(*columns.values(), strict=True)]


def publication_order(
    cells: CellColumns, positions: Iterable[int], public_ids: Mapping[str, str]
) -> list[int]:
    """The ``positions`` whose item has a public id, sorted by public number, model, then
    the card's condition order (any other condition last).

    The three are folded into one integer per cell: at 100k rows, integers sort in about
    half the time of ``(number, model, rank)`` tuples, for the same order.
    """
    number = {item: public_number(pid) for item, pid in public_ids.items()}
    rank = {c: n for n, c in enumerate(ALL_CONDITIONS)}
    last = len(ALL_CONDITIONS)
    item_id, model, condition = cells.item_id, cells.model, cells.condition
    kept = [k for k in positions if item_id[k] in number]
    models = {m: n for n, m in enumerate(sorted({model[k] for k in kept}))}
    n_models, width = len(models), last + 1
    key = {
        k: (number[item_id[k]] * n_models + models[model[k]]) * width + rank.get(condition[k], last)
        for k in kept
    }
    return sorted(kept, key=key.__getitem__)


def card_flags(cells: CellColumns, positions: Sequence[int]) -> dict[str, ItemFlags]:
    """The card's per-item flags over the cells at ``positions`` (the counted cells under the
    card's conditions): what :meth:`~labeler.results.CellSummaries.flags` gives, from the
    columns in one pass (:func:`~labeler.scoring.flags.column_flags`), no frame or pandas."""
    item_id, condition, f1 = cells.item_id, cells.condition, cells.f1
    found = column_flags(
        [item_id[k] for k in positions],
        [condition[k] for k in positions],
        [f1[k] for k in positions],
    )
    return {
        item: ItemFlags(unsolved_core=bool(unsolved), recitable=bool(recitable))
        for item, (unsolved, recitable) in found.items()
    }


def public_number(public_id: str) -> int:
    """The ``N`` of ``PREFIX-N`` (for sorting; the ID was validated or generated by us)."""
    return int(public_id.rsplit("-", 1)[1])


def dump_jsonl(rows: Iterable[Row]) -> bytes:
    """JSON lines, UTF-8, one compact object per line, keys in schema order.

    The same text as ``json.dumps(row, ensure_ascii=False)`` per row, from one encoder that
    skips the circular-reference check (rows are plain data we built): a quarter cheaper.
    """
    lines = "\n".join(map(_ENCODE, rows))
    return (lines + "\n").encode("utf-8") if lines else b""


_ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
