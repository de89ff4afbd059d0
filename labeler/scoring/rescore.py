"""Re-score results rows (plain dicts) and read/write results.jsonl.

The store, the GUI, ``labeler score`` and the analysis all rescore the same
way: from each row's ``predicted_names`` and ``key_names`` with a lexicon. A
row that lacks those fields is a user error, reported with its line number,
and nothing is written. Rows that carry the per-item flags (``unsolved_core``,
``recitable``) get them recomputed too — they are functions of the F1s, so
leaving them would contradict the new scores. A published export scores each
item with its own ``lexicon`` rows (items.jsonl); passing those back in
reproduces its scores, and ``rules="card"`` reproduces the card's own rules.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.errors import LabelerError
from labeler.scoring.bulk import collector_paused
from labeler.scoring.flags import column_flags
from labeler.scoring.match import score_counts
from labeler.scoring.rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon

SCORE_FIELDS = ("f1", "precision", "recall", "n_pred", "n_key")
FLAG_FIELDS = ("unsolved_core", "recitable")

#: item_id -> that item's lexicon rows ``(canonical, synonym, relation)``
ItemLexicons = Mapping[str, Sequence[Sequence[str]]]


class ResultsFileError(LabelerError):
    """A results.jsonl file is missing, not JSON lines, or lacks the fields scoring needs."""


def _names(row: dict[str, Any], field: str, where: str) -> list[str]:
    value = row.get(field)
    if value is None and field == "predicted_names" and field in row:
        return []  # an answer that failed to parse predicted nothing: F1 0, not an error
    if not isinstance(value, list) or not {str}.issuperset(map(type, value)):
        raise ResultsFileError(f"{where}: '{field}' must be a list of strings")
    return value


def rescore_row(
    row: dict[str, Any],
    lexicon: Lexicon | None = None,
    where: str = "row",
    *,
    rules: Rules = DEFAULT_RULES,
) -> dict:
    """A copy of ``row`` with f1/precision/recall/n_pred/n_key recomputed."""
    scores = score_counts(
        _names(row, "predicted_names", where),
        _names(row, "key_names", where),
        lexicon,
        rules=rules,
    )
    return {**row, **dict(zip(SCORE_FIELDS, scores, strict=True))}


def rescore_rows(
    rows: Iterable[dict[str, Any]],
    lexicon: Lexicon | None = None,
    item_lexicons: ItemLexicons | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> list[dict]:
    """Rescore every row, then refresh the per-item flags of rows that carry them.

    ``item_lexicons`` layers an item's own rows over ``lexicon`` for that
    item's answers only. The first bad row raises before anything is returned.
    """
    from labeler.lexicon import Lexicon

    base = lexicon or Lexicon()
    per_item: dict[str, Lexicon | None] = {}
    #: items with the very same rows share one lexicon, and so its warm caches
    by_rows: dict[tuple[tuple[str, str, str], ...], Lexicon] = {}

    def lexicon_for(item_id: object) -> Lexicon | None:
        if not isinstance(item_id, str):
            return lexicon
        found = per_item.get(item_id)
        if found is None:
            extra = (item_lexicons or {}).get(item_id)
            if not extra:
                return lexicon
            rows = tuple((r[0], r[1], r[2]) for r in extra)
            found = by_rows.get(rows)
            if found is None:
                found = by_rows[rows] = base.with_rows(rows)
            per_item[item_id] = found
        return found

    with collector_paused():
        out = [
            rescore_row(row, lexicon_for(row.get("item_id")), f"row {n}", rules=rules)
            for n, row in enumerate(rows, start=1)
        ]
        refresh_flags(out)
    return out


def refresh_flags(rows: list[dict[str, Any]]) -> None:
    """Recompute ``unsolved_core``/``recitable`` in place, only where a row has them.

    The rule is :func:`labeler.scoring.flags.item_flags`, over every row with an
    ``item_id`` and ``condition``; a row's other fields and key order are kept.
    """
    cells = []
    flagged = False
    for n, row in enumerate(rows, start=1):
        carries = "unsolved_core" in row or "recitable" in row
        flagged = flagged or carries
        if "item_id" in row and "condition" in row:
            cells.append((row["item_id"], row["condition"], row["f1"]))
        elif carries:
            raise ResultsFileError(f"row {n}: item flags need 'item_id' and 'condition'")
    if not flagged:
        return
    # one pass over plain columns, then one dict lookup per row: no frame, no pandas import
    items, conditions, f1s = zip(*cells, strict=True) if cells else ((), (), ())
    by_item = column_flags(items, conditions, f1s)
    for row in rows:
        if "unsolved_core" in row or "recitable" in row:
            unsolved, recitable = by_item[row["item_id"]]
            if "unsolved_core" in row:
                row["unsolved_core"] = unsolved
            if "recitable" in row:
                row["recitable"] = recitable


def read_item_lexicons(path: str | os.PathLike[str]) -> dict[str, list[list[str]]]:
    """Per-item ``lexicon`` rows of an items.jsonl export (items without any are left out).

    Each row is checked with set tests over the item's rows (every one a list, of three,
    of strings): at 100k answers the export holds 221k rows, and a test per value was two
    thirds of reading the file.
    """
    out: dict[str, list[list[str]]] = {}
    for n, row in enumerate(_iter_results(Path(path)), start=1):
        rows = row.get("lexicon")
        if not rows:
            continue
        ok = isinstance(row.get("item_id"), str) and type(rows) is list
        if (
            not ok
            or {list} != set(map(type, rows))
            or {3} != set(map(len, rows))
            or not {str}.issuperset(map(type, chain.from_iterable(rows)))
        ):
            raise ResultsFileError(
                f"{path}, item {n}: 'lexicon' must be [canonical, synonym, relation] rows"
            )
        out[row["item_id"]] = rows
    return out


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
        except RecursionError:
            raise ResultsFileError(f"{path}, line {n}: JSON nested too deeply to read") from None
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            raise ResultsFileError(f"{path}, line {n}: not valid JSON ({exc})") from None
        if not isinstance(row, dict):
            raise ResultsFileError(f"{path}, line {n}: expected a JSON object per line")
        yield row


def dump_results(rows: Iterable[dict[str, Any]]) -> str:
    """results.jsonl text: one compact JSON object per line, UTF-8 kept readable."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
