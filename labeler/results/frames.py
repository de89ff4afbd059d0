"""Scored cells as a pandas DataFrame (what :mod:`labeler.analysis` and the CLI read)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING

from labeler.scoring.bulk import collector_paused

if TYPE_CHECKING:
    import pandas as pd

    from labeler.results.cells import ScoredCell


FRAME_COLUMNS = (
    "item_id",
    "public_id",
    "model",
    "condition",
    "f1",
    "precision",
    "recall",
    "n_pred",
    "n_key",
    "predicted_names",
    "key_names",
    "subject",
    "tier",
    "unsolved_core",
    "recitable",
    "parse_ok",
    "status",
    "origin",
    "response_id",
    "marker_accuracy",
    "score",
)


def results_frame(cells: Sequence[ScoredCell]) -> pd.DataFrame:
    """The cells as a DataFrame with :data:`FRAME_COLUMNS` (``score`` holds the NameScore).

    One pass reads every column of a cell at once, and the collector is held
    while the name lists are copied (two new lists per cell: at 100k cells the
    collections they trigger, re-walking every live cell, cost more than the copy).
    """
    import pandas as pd

    if not cells:
        return pd.DataFrame({column: [] for column in FRAME_COLUMNS}, columns=list(FRAME_COLUMNS))
    with collector_paused():
        columns = list(zip(*map(_ROW, cells), strict=True))
        data = {
            name: [list(v) for v in values] if name in _LIST_COLUMNS else list(values)
            for name, values in zip(FRAME_COLUMNS, columns, strict=True)
        }
        return pd.DataFrame(data, columns=list(FRAME_COLUMNS))


#: The frame's columns that hold name lists (tuples on the cell, lists in the frame).
_LIST_COLUMNS = frozenset({"predicted_names", "key_names"})
#: A cell's frame row, every column in one call.
_ROW = operator.attrgetter(*FRAME_COLUMNS)
