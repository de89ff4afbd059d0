"""Checks on published rows before they reach SQLite: what JSON allows but a project cannot hold.

``json.loads`` accepts integers of any size, ``"\\ud800"`` escapes that decode to lone
surrogates, and nesting as deep as the recursion limit. SQLite stores integers of 64
bits and text as UTF-8, so such values would fail half way through an import with
``OverflowError`` or ``UnicodeEncodeError``; they are refused up front instead, naming
the row and the field.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError

SQLITE_MIN, SQLITE_MAX = -(2**63), 2**63 - 1
MAX_DEPTH = 16  # the deepest published field (lexicon rows) is 3 levels down


class UntrustedRowError(LabelerError):
    """A published file holds a value no project can store; nothing was imported."""


def check_rows(rows: list[dict[str, Any]], path: Path) -> None:
    """Raise :class:`UntrustedRowError` for the first value SQLite could not store."""
    for number, row in enumerate(rows, start=1):
        for where, value, depth in _walk(row, "", 0):
            problem = _problem(value, depth)
            if problem:
                field = where.lstrip(".") or "the row"
                raise UntrustedRowError(
                    f"{path}, row {number}, {field}: {problem}; nothing was imported."
                    " Re-export the file with Labeler or fix that value"
                )


def _walk(value: Any, where: str, depth: int) -> Iterator[tuple[str, Any, int]]:
    """Every value below ``value`` with its path and depth, without recursion limits."""
    stack = [(where, value, depth)]
    while stack:
        where, value, depth = stack.pop()
        yield where, value, depth
        if depth > MAX_DEPTH:
            continue
        if isinstance(value, dict):
            for key, item in value.items():
                yield f"{where}.{key!r}", key, depth + 1  # keys are text too
                stack.append((f"{where}.{key}", item, depth + 1))
        elif isinstance(value, list):
            stack += [(f"{where}[{i}]", item, depth + 1) for i, item in enumerate(value)]


def _problem(value: Any, depth: int) -> str | None:
    if depth > MAX_DEPTH:
        return f"nested more than {MAX_DEPTH} levels deep"
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if is_int and not SQLITE_MIN <= value <= SQLITE_MAX:
        return f"the number {str(value)[:24]}… is beyond a 64-bit integer"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"text with a lone surrogate (\\u{ord(value[exc.start]):04x}), not valid UTF-8"
        if len(value) > 10_000_000:
            return "a text of more than 10 million characters"
    return None
