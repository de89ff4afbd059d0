"""JSON lines of rows held as columns: the text ``json.dumps(row, ensure_ascii=False)`` gives.

The export builds results.jsonl's rows as columns (:func:`labeler.export.rows.result_columns`)
and checks them as columns; making a dict per row only to hand it to ``json.dumps`` cost as
much as the check itself. :func:`encode_columns` writes the same bytes from the columns:
one ``%``-template per row whose field names are already encoded, floats and integers
formatted by the ``repr`` json itself uses, strings encoded once per distinct value, and
fields that are the same wherever a key is (an item's key names, subject and tier, on each
of its forty rows) encoded once per key as one fragment. Tests compare the bytes with
``json.dumps`` on generated rows and on the golden export.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

#: ``json.dumps(value, ensure_ascii=False)`` without the per-call keyword handling
_ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
#: ``json.dumps(text, ensure_ascii=False)`` of one string: what ``_ENCODE`` calls for a string
_QUOTE = json.encoder.encode_basestring


def encode_columns(
    columns: Mapping[str, Sequence[Any]],
    keyed: Mapping[str, Sequence[Hashable]] | None = None,
) -> bytes:
    """UTF-8 JSON lines (each ending ``\\n``) of the rows ``columns`` holds (field name ->
    its values, one per row, fields in row order); b"" for no rows.

    Line ``n`` is ``json.dumps({name: column[n] for name, column in columns.items()},
    ensure_ascii=False)``. ``keyed`` names fields whose value is the same on every row with
    the same key (field -> the key column, one key per row): consecutive fields of one key
    column are encoded once per distinct key, from its first row. Nothing is mutated.
    """
    names = list(columns)
    if not names:
        raise ValueError("a row needs at least one field")
    keyed = keyed or {}
    parts: list[str] = []  # the row template, a piece per field or keyed run of fields
    args: list[Sequence[Any]] = []  # the template's arguments, a column per piece
    start = 0
    while start < len(names):
        key = keyed.get(names[start])
        end = start + 1
        while key is not None and end < len(names) and keyed.get(names[end]) is key:
            end += 1
        if key is None:
            piece, values = _field(names[start], columns[names[start]])
        else:
            piece, values = "%s", _fragments(names[start:end], columns, key)
        parts.append(piece)
        args.append(values)
        start = end
    template = "{" + ", ".join(parts) + "}"
    lines = "\n".join(map(template.__mod__, zip(*args, strict=True)))
    return (lines + "\n").encode("utf-8") if lines else b""


#: Types whose values are encoded once per distinct value: equal values of them are one text.
_BY_VALUE = frozenset({str, bool, type(None)})


def _name(name: str) -> str:
    """A field's ``"name": `` as template text."""
    return _ENCODE(name).replace("%", "%%") + ": "


def _field(name: str, values: Sequence[Any]) -> tuple[str, Sequence[Any]]:
    """One field's template piece and its arguments.

    Floats and integers (exactly those types: not bools, not subclasses) go to the template
    as they are, for ``%r`` / ``%d``: the text json writes (finite floats only: json spells
    infinities and NaN its own way), a float column's texts made once per distinct value
    unless it holds ``-0.0`` (equal to ``0.0``, another text). Strings, booleans and nulls
    are encoded once per distinct value (no two values of those types compare equal), lists
    of strings (the predicted and key names) as ``[`` + their members' encoded texts joined
    by ``", "`` + ``]`` with each distinct member encoded once, anything else one value at a
    time.
    """
    kinds = set(map(type, values))
    if kinds == {float} and all(map(math.isfinite, values)):
        if 0.0 in values and any(v == 0.0 and math.copysign(1.0, v) < 0 for v in values):
            return _name(name) + "%r", values  # 0.0 and -0.0: one key, two texts
        floats = {v: repr(v) for v in set(values)}  # scores repeat: 0.5, 1.0, 0.4 …
        return _name(name) + "%s", list(map(floats.__getitem__, values))
    if kinds == {int}:
        return _name(name) + "%d", values
    if kinds <= _BY_VALUE:
        text = {v: _ENCODE(v) for v in set(values)}
        return _name(name) + "%s", list(map(text.__getitem__, values))
    if kinds == {list}:
        flat = list(itertools.chain.from_iterable(values))
        if set(map(type, flat)) <= {str}:  # name lists: each distinct name encoded once
            members = set(flat)
            quoted = {m: _QUOTE(m) for m in members}
            lists = [f"[{', '.join(map(quoted.__getitem__, v))}]" for v in values]
            return _name(name) + "%s", lists
    return _name(name) + "%s", list(map(_ENCODE, values))


def _fragments(
    names: Sequence[str], columns: Mapping[str, Sequence[Any]], key: Sequence[Hashable]
) -> list[str]:
    """``"a": …, "b": …`` of the fields ``names`` on every row, encoded once per key."""
    first = dict(zip(reversed(key), range(len(key) - 1, -1, -1), strict=True))  # key -> row
    text = {
        k: ", ".join(_ENCODE(n) + ": " + _ENCODE(columns[n][row]) for n in names)
        for k, row in first.items()
    }
    return list(map(text.__getitem__, key))
