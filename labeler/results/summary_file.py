"""Every cell's summary kept on disk, so a new process opens a large project without rescoring.

:func:`labeler.results.cell_summaries` builds its columns in about 2 s at 100,000 answers
(the cached rows' query, the validity check against every item's key and lexicon state,
one value object per cell), and memoises them for the process; a window opened again, a
second window, or the CLI paid it anew. The columns are a function of the summaries'
inputs (answers stamp, item versions, lexicon rows, overrides, rules version: what the
in-process memo compares, less the published numbers, which an export assigns and every
read takes fresh), so they are written here under a digest of those, and read back when a
process finds the same digest: ≈0.2 s instead of 2 s.

The file is a cache, never a source of truth: it is JSON (never pickle, so a shared project
folder cannot run code), written atomically (:mod:`labeler.atomic`), checked whole (header
digest, column names and lengths, an end line) and ignored — recomputed and rewritten —
when anything about it is off; failing to write it (a read-only or full disk) only costs
the next process the rebuild. It is JSON Lines of bounded chunks so that no single decode
holds the interpreter long: a view reads it on a worker thread while the GUI thread must
keep ticking (``tests/ui/stall.py``). Strings repeated per cell (item ids, models,
conditions, statuses), marker scores and predicted-name lists are stored once in a table and
referenced by position, which also shares the decoded objects as the in-process read does.
A read that publishes names (:func:`labeler.results.cell_columns`: the export, ``labeler
report``) keeps them too; a read that takes fewer columns skips the others' lines unparsed,
and one that wants columns the file lacks rebuilds (and keeps them for the next).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re
import sys
from array import array
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from labeler import __version__
from labeler.atomic import atomic_open
from labeler.scoring import MarkerScore

#: Where a project keeps it, under its folder (derived data: safe to delete).
RELATIVE_PATH = Path("cache") / "cell-summaries.jsonl"
#: Moves when the layout below changes, so an older file is never misread.
FORMAT = 2
#: Values per line: one ``json.loads`` of a line is a few milliseconds.
CHUNK = 20_000

#: Columns stored as positions into a table of their distinct values.
_TABLED = frozenset({"item_id", "model", "condition", "status", "markers", "predicted_names"})
#: A column's line starts with its name (:func:`_line` writes keys in order, no spaces), so a
#: read that does not want the column skips the line unparsed.
_COLUMN = re.compile(r'\{"column":"([^"\\]*)",')
_MARKER_FIELDS = tuple(f.name for f in dataclasses.fields(MarkerScore))


def digest(signature: object) -> str:
    """A digest of a summaries signature that is the same in every process.

    The signature holds only ints, floats, strings, tuples, lists and dicts filled in query
    order, whose ``repr`` does not depend on the process (unlike ``hash`` of a string).
    """
    text = repr((FORMAT, __version__, signature))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def path_in(folder: Path) -> Path:
    """The file of the project in ``folder``."""
    return folder / RELATIVE_PATH


def save(
    path: Path, key: str, stamp: tuple[int, int], columns: Mapping[str, Sequence[Any]]
) -> bool:
    """Write ``columns`` (equal lengths), read at answers ``stamp``, under ``key``; False
    when the disk refused.

    A refused write leaves any previous file as it was (it only goes stale).
    """
    try:
        with atomic_open(path, "w") as fh:
            for line in _lines(key, stamp, columns):
                fh.write(line)
    except OSError:
        return False
    return True


def load(
    path: Path, key: str, names: Sequence[str]
) -> tuple[tuple[int, int], dict[str, list[Any]]] | None:
    """The answers stamp and the columns ``names`` stored under ``key``, or None (no file,
    another key, damaged)."""
    try:
        with path.open(encoding="utf-8") as fh:
            return _read(fh, key, names)
    except (OSError, ValueError, TypeError, KeyError, IndexError):  # bad base64 is a ValueError
        return None  # a damaged or foreign file is rebuilt, not trusted


def _lines(key: str, stamp: tuple[int, int], columns: Mapping[str, Sequence[Any]]) -> Iterator[str]:
    sizes = {len(values) for values in columns.values()}
    if len(sizes) > 1:
        raise ValueError(f"columns of different lengths: {sorted(sizes)}")
    n = sizes.pop() if sizes else 0
    yield _line({"format": FORMAT, "key": key, "stamp": list(stamp), "n": n})
    for name, values in columns.items():
        if name in _TABLED:
            table, positions = _tabled(values, _marker_fields if name == "markers" else None)
            yield _line({"column": name, "table": table})
            values = positions
        for start in range(0, len(values), CHUNK):
            yield _line({"column": name, **_packed(values[start : start + CHUNK])})
    yield _line({"end": key})


#: Array type codes of chunks whose values are all floats or all ints, stored as their
#: little-endian bytes in base64: exact (NaN included), and encoded and decoded in C,
#: where ``repr`` and parsing 100k floats cost a tenth of a second each way.
_PACKED: dict[str, tuple[str, type]] = {"doubles": ("d", float), "ints": ("q", int)}


def _packed(values: Sequence[Any]) -> dict[str, Any]:
    """A chunk as ``{"doubles"|"ints": base64}`` when its values allow, else ``{"values"}``."""
    for field, (code, kind) in _PACKED.items():
        if values and all(type(v) is kind for v in values):
            try:
                packed = array(code, values)
            except OverflowError:  # an int past 64 bits: as JSON
                break
            if sys.byteorder == "big":
                packed.byteswap()
            return {field: base64.b64encode(packed.tobytes()).decode("ascii")}
    return {"values": list(values)}


def _unpacked(record: dict[str, Any]) -> list[Any]:
    for field, (code, _) in _PACKED.items():
        if field in record:
            values = array(code)
            values.frombytes(base64.b64decode(record[field], validate=True))
            if sys.byteorder == "big":
                values.byteswap()
            return values.tolist()
    return list(record["values"])


def _line(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def _tabled(values: Sequence[Any], encode: Any) -> tuple[list[Any], list[int]]:
    """The distinct values (``None`` is position -1) and each value's position among them.

    Without ``encode`` the values are strings, told apart as themselves; with it (marker
    scores, which are not hashable) by the JSON of ``encode(value)``, worked out once per
    object (equal cells mostly share one).
    """
    table: list[Any] = []
    if encode is None:
        seen: dict[Any, int] = {None: -1}
        for value in values:
            if value not in seen:
                seen[value] = len(table)
                table.append(value)
        return table, [seen[value] for value in values]
    where: dict[int, int] = {}
    by_text: dict[str, int] = {}
    positions = []
    for value in values:
        if value is None:
            positions.append(-1)
            continue
        at = where.get(id(value))
        if at is None:
            plain = encode(value)
            at = by_text.setdefault(json.dumps(plain, sort_keys=True), len(table))
            if at == len(table):
                table.append(plain)
            where[id(value)] = at
        positions.append(at)
    return table, positions


def _marker_fields(score: MarkerScore) -> list[Any]:
    return [getattr(score, name) for name in _MARKER_FIELDS]


def _read(
    lines: Any, key: str, names: Sequence[str]
) -> tuple[tuple[int, int], dict[str, list[Any]]] | None:
    head = json.loads(next(lines, ""))  # an empty file does not parse
    if head.get("format") != FORMAT or head.get("key") != key:
        return None
    count, newest = head["stamp"]
    stamp, n = (int(count), int(newest)), int(head["n"])
    wanted = set(names)
    columns: dict[str, list[Any]] = {}
    tables: dict[str, list[Any]] = {}
    ended = False
    for line in lines:
        named = _COLUMN.match(line)
        if named is not None and named.group(1) not in wanted:
            continue  # a column this read does not take: not even parsed
        record = json.loads(line)
        if "end" in record:
            ended = record["end"] == key
            break
        name = record["column"]
        if "table" in record:
            tables[name] = record["table"]
        else:
            columns.setdefault(name, []).extend(_unpacked(record))
    if not ended or set(columns) != wanted or any(len(c) != n for c in columns.values()):
        return None
    for name, table in tables.items():
        if name == "markers":
            table = [MarkerScore(*fields) for fields in table]
        elif name == "predicted_names":
            table = [tuple(listed) for listed in table]
        columns[name] = [None if at < 0 else table[at] for at in columns[name]]
    return stamp, columns
