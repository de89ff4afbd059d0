"""Schema validation of an export, run on the rows in memory before anything is written.

A published dataset is loaded by strangers with strict loaders (Hugging Face
``datasets`` casts every row to the declared features), so a wrong type, an
extra field or an internal id in one row must stop the export, with a message
that names the file, row and field. :func:`check_no_leaks` is the last guard
on privacy: the public files are searched for private strings (source paths,
file names, book titles, internal ids).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any

from labeler.errors import ExportError
from labeler.export.rows import PER_ITEM, Columns, rows_of
from labeler.export.schema import (
    ITEM_FIELDS,
    PROVENANCE_FILE,
    SLOT_FIELD,
    Field,
    result_fields,
)
from labeler.lexicon import RELATIONS
from labeler.prompts import ALL_CONDITIONS, CONDITIONS
from labeler.store.records import PATTERNS, TIERS

MAX_REPORTED = 10
WRITING = "export not written"
READING = "nothing imported"
#: Private strings shorter than this are too generic to search for.
MIN_SECRET_LEN = 4


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_float(v: Any) -> bool:
    return isinstance(v, float) and math.isfinite(v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_names(v: Any) -> bool:
    # one C-level pass over the member types: this runs for every name list of every row
    return isinstance(v, list) and (not v or set(map(type, v)) == {str})


def _is_map(value_ok: Callable[[Any], bool]) -> Callable[[Any], bool]:
    # C-level passes over keys and values: items.jsonl has maps per key name of every item
    return lambda v: (
        isinstance(v, dict)
        and all(map(isinstance, v, itertools.repeat(str)))
        and all(map(value_ok, v.values()))
    )


def _is_rows(v: Any) -> bool:
    """A list of ``[string, string, relation]`` rows, in C-level passes (an item lists
    dozens of lexicon rows): lists of three, every member a string, known relations."""
    return (
        isinstance(v, list)
        and all(map(isinstance, v, itertools.repeat(list)))
        and set(map(len, v)) <= {3}
        and set(map(type, itertools.chain.from_iterable(v))) <= {str}
        and set(map(itemgetter(2), v)) <= set(RELATIONS)
    )


CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": _is_str,
    "float64": _is_float,
    "int64": _is_int,
    "bool": _is_bool,
    "list[string]": _is_names,
    "map[string, string|null]|null": lambda v: (
        v is None or _is_map(lambda x: x is None or _is_str(x))(v)
    ),
    "map[string, list[string]]": _is_map(_is_names),
    "map[string, string]": _is_map(_is_str),
    "map[string, float64|null]": _is_map(lambda x: x is None or _is_float(x)),
    "float64|null": lambda v: v is None or _is_float(v),
    "list[[string, string, string]]": _is_rows,
}


class _Problems:
    """Collects problems; raises one ExportError listing the first few."""

    def __init__(self, context: str) -> None:
        self.context = context
        self.found: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.found.append(f"{where}: {message}")

    def raise_if_any(self) -> None:
        if not self.found:
            return
        shown = "; ".join(self.found[:MAX_REPORTED])
        more = len(self.found) - MAX_REPORTED
        suffix = f" (and {more} more)" if more > 0 else ""
        raise ExportError(f"{self.context}, {len(self.found)} problem(s): {shown}{suffix}")


def _check_shape(row: Any, fields: Sequence[Field], where: str, problems: _Problems) -> bool:
    if not isinstance(row, dict):
        problems.add(where, "not a JSON object")
        return False
    names = [f.name for f in fields]
    if list(row) != names:
        extra = [k for k in row if k not in names]
        missing = [n for n in names if n not in row]
        detail = ", ".join(
            part
            for part in (
                f"unexpected {extra}" if extra else "",
                f"missing {missing}" if missing else "",
            )
            if part
        )
        problems.add(where, f"fields must be exactly {names} in that order ({detail or 'order'})")
        return False
    ok = True
    for f in fields:
        if not CHECKS[f.type](row[f.name]):
            problems.add(where, f"{f.name!r} must be {f.type}, got {row[f.name]!r}")
            ok = False
    return ok


def _check_fraction(value: Any, name: str, where: str, problems: _Problems) -> None:
    if value is not None and not 0.0 <= value <= 1.0:
        problems.add(where, f"{name!r} must be between 0 and 1, got {value!r}")


def validate_items(rows: Sequence[Any], prefix: str, context: str = WRITING) -> dict[str, dict]:
    """Check items.jsonl rows; returns them by item_id. Raises ExportError."""
    problems, by_id = _Problems(context), {}
    pattern = re.compile(rf"{re.escape(prefix)}-[1-9][0-9]*")
    for n, row in enumerate(rows, start=1):
        where = f"items.jsonl row {n}"
        if not _check_shape(row, ITEM_FIELDS, where, problems):
            continue
        where += f" ({row['item_id']})"
        if not pattern.fullmatch(row["item_id"]):
            problems.add(where, f"item_id must look like {prefix}-N")
        if row["item_id"] in by_id:
            problems.add(where, "item_id appears twice")
        by_id[row["item_id"]] = row
        if row["tier"] not in TIERS:
            problems.add(where, f"tier must be one of {TIERS}")
        if row["pattern"] not in PATTERNS:
            problems.add(where, f"pattern must be one of {PATTERNS}")
        if not row["key_names"] or row["n_key"] < 1:
            problems.add(where, "the item has no answer key; add key names or mark it excluded")
        if row["n_key"] > len(row["key_names"]):
            problems.add(where, "n_key is larger than the number of key names")
        for name in ("synonyms", "distinct", "alternatives", "key_notes"):
            if set(row[name]) != set(row["key_names"]):
                problems.add(where, f"{name!r} must have one entry per key name")
        for letter, name in (row["markers"] or {}).items():
            if name is not None and name not in row["key_names"]:
                problems.add(where, f"marker {letter} names {name!r}, which is not a key name")
        if tuple(row["mean_f1"]) != CONDITIONS:
            problems.add(where, f"mean_f1 must have exactly the conditions {CONDITIONS}")
        for condition, value in row["mean_f1"].items():
            _check_fraction(value, f"mean_f1.{condition}", where, problems)
    problems.raise_if_any()
    return by_id


def validate_results(
    rows: Sequence[Any], items: Mapping[str, dict] | None, context: str = WRITING
) -> None:
    """Check results.jsonl rows against the schema and, if given, their items.

    Without ``items`` (importing published results) only the rows themselves are
    checked; which items exist is the importer's question. Rows with ``slot_accuracy``
    (an export made with ``--include-slots``) may also hold the slot conditions.
    Raises ExportError.
    """
    slots = bool(rows) and isinstance(rows[0], dict) and SLOT_FIELD.name in rows[0]
    check = ResultsCheck(items, slots, context)
    check.add(rows)
    check.done()


class ResultsCheck:
    """:func:`validate_results` for rows that arrive in batches (the export streams them).

    Each batch is checked a column at a time (C-level passes over the batch's values: the
    export's 100k rows cost about what writing them does); only a batch that fails is
    walked row by row, for messages that name the row and field. :meth:`done` raises the
    problems of all batches at once, as one call over every row would.
    """

    def __init__(self, items: Mapping[str, dict] | None, slots: bool, context: str = WRITING):
        self.items, self.slots = items, slots
        self.fields = result_fields(slots)
        self.names = tuple(f.name for f in self.fields)
        self.conditions = ALL_CONDITIONS if slots else CONDITIONS
        self.problems = _Problems(context)
        self.seen: set[tuple[str, str, str]] = set()
        self.n = 0

    def add(self, rows: Sequence[Any]) -> None:
        """Check the next batch of rows (numbered on from the previous batches)."""
        if not self._fast_ok(rows):
            self._rows(rows)
        self.n += len(rows)

    def add_columns(self, columns: Columns) -> None:
        """:meth:`add` for a batch held as columns (what the export builds and encodes)."""
        lengths = set(map(len, columns.values()))
        ok = tuple(columns) == self.names and len(lengths) == 1 and self._columns_ok(columns)
        if not ok:
            self._rows(rows_of(columns))
        self.n += max(lengths, default=0)

    def done(self) -> None:
        self.problems.raise_if_any()

    def _rows(self, rows: Sequence[Any]) -> None:
        """Every row on its own, for messages that name the row and field."""
        for n, row in enumerate(rows, start=self.n + 1):
            self._row(row, f"results.jsonl row {n}")

    def _fast_ok(self, rows: Sequence[Any]) -> bool:
        """Whether every row of the batch passes every check (seen cells then recorded)."""
        if not rows:
            return True
        names = self.names
        if set(map(type, rows)) != {dict} or not all(map(names.__eq__, map(tuple, rows))):
            return False
        # every row has exactly these fields, in order: one C-level transposition to columns
        values = map(list, zip(*map(itemgetter(*names), rows), strict=True))
        return self._columns_ok(dict(zip(names, values, strict=True)))

    def _columns_ok(self, column: Columns) -> bool:
        """Whether every row of a batch held as columns (exactly the fields, in order, of
        equal length) passes every check; its cells are then recorded as seen."""
        if not all(_column_ok(f.type, column[f.name]) for f in self.fields):
            return False
        fractions = ["f1", "precision", "recall", *([SLOT_FIELD.name] if self.slots else [])]
        for name in fractions:
            values: Sequence[Any] = column[name]
            if None in values:  # slot_accuracy is null outside the slot conditions
                values = [v for v in values if v is not None]
            if values and not 0.0 <= min(values) <= max(values) <= 1.0:
                return False
        if not all(column["model"]) or not set(column["condition"]) <= set(self.conditions):
            return False
        if min(min(column["n_pred"]), min(column["n_key"])) < 0:
            return False
        cells = list(zip(column["item_id"], column["model"], column["condition"], strict=True))
        if len(set(cells)) != len(cells) or not self.seen.isdisjoint(cells):
            return False
        if self.items is not None:
            if not all(map(self.items.__contains__, column["item_id"])):
                return False
            found = list(map(self.items.__getitem__, column["item_id"]))
            for name in _COPIED:
                if list(map(itemgetter(name), found)) != column[name]:
                    return False
        self.seen.update(cells)
        return True

    def _row(self, row: Any, where: str) -> None:
        problems = self.problems
        if not _check_shape(row, self.fields, where, problems):
            return
        cell = (row["item_id"], row["model"], row["condition"])
        where += " ({}, {}, {})".format(*cell)
        if cell in self.seen:
            problems.add(where, "the same (item, model, condition) appears twice")
        self.seen.add(cell)
        if not row["model"]:
            problems.add(where, "model is empty")
        if row["condition"] not in self.conditions:
            problems.add(where, f"condition must be one of {self.conditions}")
        for name in ("f1", "precision", "recall", *([SLOT_FIELD.name] if self.slots else [])):
            _check_fraction(row[name], name, where, problems)
        for name in ("n_pred", "n_key"):
            if row[name] < 0:
                problems.add(where, f"{name!r} must not be negative")
        if self.items is None:
            return
        item = self.items.get(row["item_id"])
        if item is None:
            problems.add(where, "item_id is not in items.jsonl")
            return
        for name in _COPIED:
            if row[name] != item[name]:
                problems.add(where, f"{name!r} differs from the item's ({item[name]!r})")


#: The item's fields every results row repeats (and must repeat exactly), in the order the
#: messages name them: the fields the export encodes once per item.
_COPIED = ("subject", "tier", "key_names", "unsolved_core", "recitable")
assert set(_COPIED) == set(PER_ITEM)


def _column_ok(kind: str, values: Sequence[Any]) -> bool:
    """Whether every value of one column has the schema type ``kind`` (one C-level pass)."""
    types = set(map(type, values))
    if kind == "string":
        return types <= {str}
    if kind == "int64":
        return types <= {int}
    if kind == "bool":
        return types <= {bool}
    if kind in ("float64", "float64|null"):
        allowed = {float, type(None)} if kind.endswith("|null") else {float}
        if not types <= allowed:
            return False
        finite = values if type(None) not in types else [v for v in values if v is not None]
        return all(map(math.isfinite, finite))
    if kind == "list[string]":
        if not types <= {list}:
            return False
        lists = {id(names): names for names in values}.values()  # an item's: one list, read once
        return set(map(type, itertools.chain.from_iterable(lists))) <= {str}
    return all(map(CHECKS[kind], values))


def check_no_leaks(
    files: Mapping[str, bytes],
    secrets: Iterable[str],
    rows: Mapping[str, Iterable[Any]] | None = None,
) -> None:
    """Refuse if a public file contains a private string (case-insensitive, punctuation loose).

    Files named in ``rows`` are checked through the rows they were written from: every
    distinct string in them (values and keys) once, instead of their bytes, where each
    item's subject and key recur on every row of the item. The rest are checked as text.
    Either way it is one linear pass of :class:`LeakFinder`, built once per export.
    """
    check = LeakCheck(secrets)
    rows = rows or {}
    for name in sorted({*files, *rows}):
        if name in rows:
            check.rows(name, rows[name])
        else:
            check.text(name, files[name])
    check.done()


class LeakCheck:
    """:func:`check_no_leaks` for files whose rows arrive in batches (the export streams them).

    Each file's distinct strings are searched once however many batches repeat them; the
    private provenance file is never searched. :meth:`done` raises every find, by file.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        self.finder = LeakFinder(secrets)
        self.found: dict[str, set[str]] = {}
        self._searched: dict[str, set[Any]] = {}

    def rows(self, name: str, rows: Iterable[Any]) -> None:
        """Search the strings of a batch of ``name``'s rows."""
        if not self.finder or name == PROVENANCE_FILE:
            return
        self._search(name, _strings(rows))

    def _search(self, name: str, strings: set[Any]) -> None:
        searched = self._searched.setdefault(name, set())
        new = strings - searched
        searched |= new
        self._add(name, self.finder.in_strings(new))

    def columns(self, name: str, columns: Columns) -> None:
        """:meth:`rows` for a batch of ``name``'s rows held as columns."""
        if self.finder and name != PROVENANCE_FILE:
            self._search(name, _column_strings(columns))

    def text(self, name: str, data: bytes) -> None:
        """Search a file given as bytes."""
        if self.finder and name != PROVENANCE_FILE:
            self._add(name, self.finder.find(data.decode("utf-8", errors="replace")))

    def _add(self, name: str, found: set[str]) -> None:
        if found:
            self.found.setdefault(name, set()).update(found)

    def done(self) -> None:
        problems = _Problems(WRITING)
        for name in sorted(self.found):
            for needle in sorted(self.found[name]):
                problems.add(name, f"contains private text {needle!r} (source name, title or id)")
        problems.raise_if_any()


class LeakFinder:
    """Finds private strings in text in one pass, however their punctuation is retyped.

    A string matches with its punctuation loosened: its words must appear in order,
    separated by any run of non-word characters, in any case. So ``Hidden-Publisher-Atlas-2024``
    also matches ``hidden publisher atlas 2024``, a title matches with its comma dropped, and
    a Windows path matches as JSON writes it (backslashes doubled). Text and strings are
    both reduced to casefolded words joined by single spaces, and the strings are compiled
    into one trie-shaped regex (one branch per distinct next character), so a search costs
    one step per character of text and step of the longest string, not one scan per
    string: a project has thousands of ids. A match reports the private string as given.
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        kept = {s.strip() for s in secrets if s and len(s.strip()) >= MIN_SECRET_LEN}
        self._given: dict[str, str] = {}
        for secret in sorted(kept, key=lambda s: (-len(s), s)):
            self._given.setdefault(_words(secret), secret.casefold())
        self._given.pop("", None)
        self._pattern = re.compile(_trie(self._given)) if self._given else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def find(self, text: str) -> set[str]:
        """The private strings (as given, casefolded) that ``text`` contains."""
        if self._pattern is None:
            return set()
        return {self._given[m.group(0)] for m in self._pattern.finditer(_words(text))}

    def in_strings(self, strings: Iterable[Any]) -> set[str]:
        """The private strings found in any of ``strings`` (each searched on its own).

        The strings are searched as one text, joined by NUL: casefolding and the word
        regex are per character, so the joined text reduces to each string's own words
        with NUL between them, and no private string (words and single spaces only)
        matches across one. One pass costs a C-level call for thousands of strings, where a
        call per string cost more than the search (issue #17). A string that holds a NUL
        itself would read as two: such a batch is searched one string at a time.
        """
        if self._pattern is None:
            return set()
        texts = [s for s in strings if isinstance(s, str)]
        joined = _BOUNDARY.join(texts)
        if joined.count(_BOUNDARY) != max(len(texts) - 1, 0):
            return set().union(*map(self.find, texts))
        words = _LOOSE_SEPARATORS.sub(" ", joined.casefold())
        return {self._given[m.group(0)] for m in self._pattern.finditer(words)}


def _strings(rows: Iterable[Any]) -> set[Any]:
    """Every distinct string in JSON-like rows: dict keys and values, list members.

    A batch of flat rows with the same fields (results.jsonl's) is read a column at a time:
    a column of strings, or of lists of strings (names), joins the set in one C-level call,
    and only another kind of column is walked value by value. Otherwise scalars of a row
    are taken in place and a list of strings in one call: this walks every row of the export.
    """
    rows = list(rows)
    fields = tuple(rows[0]) if rows and type(rows[0]) is dict else ()
    if (
        len(fields) > 1
        and set(map(type, rows)) == {dict}
        and all(map(fields.__eq__, map(tuple, rows)))
    ):
        columns = zip(*map(itemgetter(*fields), rows), strict=True)
        return _column_strings(dict(zip(fields, columns, strict=True)))
    return _walk(rows)


def _column_strings(columns: Mapping[str, Sequence[Any]]) -> set[Any]:
    """:func:`_strings` of the rows a batch of columns holds: the field names, then each
    column at once where it is all strings or all lists of strings, else value by value."""
    found: set[Any] = set(columns)
    for column in columns.values():
        kinds = set(map(type, column))
        if kinds == {list}:  # an item's key names are one list on its forty rows: read once
            column = list({id(names): names for names in column}.values())
        if kinds == {str}:
            found.update(column)
        elif kinds == {list} and set(map(type, names := [*itertools.chain(*column)])) <= {str}:
            found.update(names)
        elif not kinds <= {int, float, bool, type(None)}:
            found |= _walk(list(column))
    return found


def _walk(rows: list[Any]) -> set[Any]:
    """:func:`_strings` value by value, at any depth."""
    found: set[Any] = set()
    stack: list[Any] = rows
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            found.update(value)  # its keys
            for v in value.values():
                if type(v) is str:
                    found.add(v)
                elif isinstance(v, list | tuple | dict):
                    stack.append(v)
        elif kind is list or kind is tuple:
            kinds = set(map(type, value))
            if kinds == {str}:
                found.update(value)
            elif kinds == {list} and set(map(type, flat := [*itertools.chain(*value)])) == {str}:
                found.update(flat)  # an item's lexicon rows: a hundred lists in one call
            else:
                stack.extend(value)
        elif kind is str:
            found.add(value)
    return found


_SEPARATORS = re.compile(r"[\W_]+")
#: Between the strings :meth:`LeakFinder.in_strings` searches as one text: never in a word.
_BOUNDARY = "\x00"
#: :data:`_SEPARATORS` except the boundary: a run of them between two words is one space.
_LOOSE_SEPARATORS = re.compile(r"(?:[^\w\x00]|_)+")


def _words(text: str) -> str:
    """``text`` as casefolded words joined by single spaces (what a private string matches)."""
    return " ".join(w for w in _SEPARATORS.split(text.casefold()) if w)


def _trie(words: Iterable[str]) -> str:
    """A regex matching exactly ``words``, factored by common prefix (no backtracking blow-up).

    The longest word wins where one is a prefix of another (optional tails are greedy).
    """
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + chain(node[ch]) for ch in sorted(node) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    def chain(node: dict[str, dict]) -> str:
        """A run of single-child nodes as plain literals (recursion only where words branch)."""
        literal = []
        while len(node) == 1 and "" not in node:
            ch = next(iter(node))
            literal.append(re.escape(ch))
            node = node[ch]
        return "".join(literal) + emit(node)

    return emit(root)
