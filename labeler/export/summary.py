"""What the dataset card says about ``results.jsonl``, gathered while its rows stream past.

The card needs the row count, the models, which conditions each model answered, and the
columns of the results table (item, model, condition, F1) — never the rows themselves.
:class:`ResultsSummary` keeps exactly that, so the export can write each row and forget it
(issue #17: memory bounded), and answers every question in one pass over the rows instead
of one pass per model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from labeler.prompts import CONDITIONS

Row = dict[str, Any]
_COLUMNS = ("item_id", "model", "condition", "f1")
_TABLE = itemgetter(*_COLUMNS)


@dataclass
class ResultsSummary:
    """The card's view of results.jsonl: counts, conditions per model, the table's columns."""

    n_rows: int = 0
    by_model: dict[str, set[str]] = field(default_factory=dict)  # model -> its conditions
    table: list[tuple[str, str, str, float]] = field(default_factory=list)

    @classmethod
    def of(cls, rows: Iterable[Row]) -> ResultsSummary:
        summary = cls()
        summary.add(list(rows))
        return summary

    def add(self, rows: list[Row]) -> None:
        """Take in a batch of published rows."""
        self._take(list(map(_TABLE, rows)))

    def add_columns(self, columns: Mapping[str, Sequence[Any]]) -> None:
        """Take in a batch of published rows held as columns (field name -> values)."""
        self._take(list(zip(*map(columns.__getitem__, _COLUMNS), strict=True)))

    def _take(self, cells: list[tuple[str, str, str, float]]) -> None:
        self.n_rows += len(cells)
        self.table += cells
        for _, model, condition, _ in cells:
            seen = self.by_model.get(model)
            if seen is None:
                seen = self.by_model[model] = set()
            seen.add(condition)

    @property
    def models(self) -> list[str]:
        return sorted(self.by_model)

    def conditions(self) -> list[str]:
        """The conditions some exported answer was given under, in the card's order."""
        present = set().union(*self.by_model.values())
        return [c for c in CONDITIONS if c in present]
