"""Re-score results rows (plain dicts) and read/write results.jsonl.

The store, the GUI, ``labeler score`` and the analysis all rescore the same
way: from each row's ``predicted_names`` and ``key_names`` with a lexicon. A
row that lacks those fields is a user error, reported with its line number,
and nothing is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.errors import LabelerError
from labeler.scoring.bulk import collector_paused
from labeler.scoring.match import score_names

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon

SCORE_FIELDS = ("f1", "precision", "recall", "n_pred", "n_key")


class ResultsFileError(LabelerError):
    """A results.jsonl file is missing, not JSON lines, or lacks the fields scoring needs."""


def _names(row: dict[str, Any], field: str, where: str) -> list[str]:
    value = row.get(field)
    if value is None and field == "predicted_names" and field in row:
        return []  # an answer that failed to parse predicted nothing: F1 0, not an error
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ResultsFileError(f"{where}: '{field}' must be a list of strings")
    return value


def rescore_row(row: dict[str, Any], lexicon: Lexicon | None = None, where: str = "row") -> dict:
    """A copy of ``row`` with f1/precision/recall/n_pred/n_key recomputed."""
    result = score_names(
        _names(row, "predicted_names", where), _names(row, "key_names", where), lexicon
    )
    return {**row, **{f: getattr(result, f) for f in SCORE_FIELDS}}


def rescore_rows(rows: Iterable[dict[str, Any]], lexicon: Lexicon | None = None) -> list[dict]:
    """Rescore every row; the first bad row raises before anything is returned."""
    with collector_paused():
        return [rescore_row(row, lexicon, f"row {n}") for n, row in enumerate(rows, start=1)]


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Rows of a results.jsonl file (blank lines skipped); errors name the line."""
    return list(_iter_results(Path(path)))


def _iter_results(path: Path) -> Iterator[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ResultsFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ResultsFileError(f"{path} is not UTF-8 JSON lines") from exc
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ResultsFileError(f"{path}, line {n}: not valid JSON ({exc.msg})") from exc
        if not isinstance(row, dict):
            raise ResultsFileError(f"{path}, line {n}: expected a JSON object per line")
        yield row


def dump_results(rows: Iterable[dict[str, Any]]) -> str:
    """results.jsonl text: one compact JSON object per line, UTF-8 kept readable."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
