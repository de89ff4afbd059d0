"""Scored results: one row per (item, model, condition) cell, from the store.

This is the one bridge between the project store and scoring, shared by the
export and by the GUI's review matrix and leaderboard, so a number on screen is
the number that gets published. Each cell is the *latest* response of that
cell (responses are append-only), scored with :func:`labeler.scoring.score_names`
against the item's key names, using the project lexicon: the global rows plus
that item's own additions. :func:`score_cell` is that one cell's scoring, public
so a view that scores lazily gets the same number.

The package has one module per job; this one names what callers use:

* :mod:`~labeler.results.cells` — :func:`load_results` and :func:`counted_results`, every
  cell as a :class:`ScoredCell` with names and matches (the reference read);
* :mod:`~labeler.results.summaries` — :func:`cell_summaries` and :func:`cell_columns`, the
  same cells as columns read from the score cache's own columns (views, export, report);
* :mod:`~labeler.results.cache` — whether a cached result is still valid, and scoring and
  storing the rest (``docs/decisions/0019-score-cache.md``);
* :mod:`~labeler.results.cell_scoring` — one cell's scoring: key names and markers, the
  item's lexicon, memoised scores;
* :mod:`~labeler.results.counts` — which answers count (:func:`answer_counts`,
  :func:`is_stale`; ``docs/decisions/0011-which-answers-count.md``);
* :mod:`~labeler.results.flags` — the card's per-item flags (``unsolved_core``,
  ``recitable``); :mod:`~labeler.results.frames` — cells as a DataFrame.

Items whose key prints marker letters also get the card's marker accuracy per
cell (:attr:`ScoredCell.markers`), scored from each label's name and
``location_hint`` with the item's lexicon.
"""

from labeler.results.cell_scoring import (
    ItemLexicons,
    Labels,
    answer_labels,
    key_markers,
    key_names,
    project_lexicon,
    score_cell,
    score_markers,
)
from labeler.results.cells import ScoredCell, cell_raw, counted_results, load_results
from labeler.results.counts import NO_ANSWER_STATUSES, answer_counts, is_stale
from labeler.results.flags import ItemFlags, item_flags
from labeler.results.frames import FRAME_COLUMNS, results_frame
from labeler.results.summaries import (
    CellColumns,
    CellSummaries,
    LeftOut,
    cell_columns,
    cell_summaries,
)

__all__ = [
    "FRAME_COLUMNS",
    "NO_ANSWER_STATUSES",
    "CellColumns",
    "CellSummaries",
    "ItemFlags",
    "ItemLexicons",
    "Labels",
    "LeftOut",
    "ScoredCell",
    "answer_counts",
    "answer_labels",
    "cell_columns",
    "cell_raw",
    "cell_summaries",
    "counted_results",
    "is_stale",
    "item_flags",
    "key_markers",
    "key_names",
    "load_results",
    "project_lexicon",
    "results_frame",
    "score_cell",
    "score_markers",
]
