"""New rows for a table model: repaint only what changed, reset only when the rows did.

The end of a run, a lexicon edit and a re-send re-read every view's rows on a worker,
and most of them come back as they were. A model reset makes the view forget its
selection and scroll and repaint the whole table; at the end of a run at 7,200 cells
the three views' repaints were the longest stretch of GUI-thread work (decision 0024).
When the same rows come back in the same order, a model takes them in place and
emits ``dataChanged`` over just the rows whose cells differ — nothing at all when
none do — so Qt repaints those rows and nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, is_dataclass

from PySide6.QtCore import QAbstractItemModel


def same(a: object, b: object) -> bool:
    """Equality in which NaN equals NaN, through tuples, lists, dicts and dataclasses.

    Scores use NaN for "not run"; ``nan == nan`` is false, so plain equality would
    call every such row changed on every refresh.
    """
    if a is b or a == b:
        return True
    if is_dataclass(a) and not isinstance(a, type) and type(a) is type(b):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return False


def runs(rows: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows."""
    found: list[tuple[int, int]] = []
    for row in sorted(rows):
        if found and found[-1][1] == row - 1:
            found[-1] = (found[-1][0], row)
        else:
            found.append((row, row))
    return found


def refresh_rows(
    model: QAbstractItemModel,
    old_keys: Sequence[object],
    new_keys: Sequence[object],
    changed: Callable[[int], bool],
    take: Callable[[], None],
) -> bool:
    """Give ``model`` its new rows through ``take``; True when that took a reset.

    ``old_keys``/``new_keys`` identify the rows before and after (item ids, say);
    when they are equal, ``changed(row)`` — asked before ``take`` — says which rows'
    cells differ, and only those are announced. Row headers are not: announcing a
    header makes a header sized to its labels ask every row for its label again (the
    model announces the labels that did change, ``headerDataChanged``).
    """
    if list(old_keys) != list(new_keys) or not new_keys:
        model.beginResetModel()
        take()
        model.endResetModel()
        return True
    dirty = [row for row in range(len(new_keys)) if changed(row)]
    take()
    last_column = max(model.columnCount() - 1, 0)
    for first, last in runs(dirty):
        model.dataChanged.emit(model.index(first, 0), model.index(last, last_column))
    return False
