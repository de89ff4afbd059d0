"""The BLINDSPOT analysis over a results DataFrame (one row per item × model × condition).

Input columns: ``item_id, model, condition, f1`` and, for the functions that
need names, ``predicted_names, key_names``; ``raw_text`` is optional (decline
rate). Everything here is a pure function of the frame, so the CLI, the GUI
and export produce the same numbers.

Which rows are in the frame is not decided here: callers pass the cells that
count (:func:`labeler.results.counted_results`, or an export's results.jsonl,
which holds only those).

What lives where (callers import from here; the modules only point down:
``auditing`` reads ``metrics``, ``render`` takes their results as plain data):

- :mod:`~labeler.analysis.metrics` — the card's numbers: mean F1, the results table,
  paired bootstrap CIs, items paired, marker accuracy, declines;
- :mod:`~labeler.analysis.auditing` — the report's audits: the keeper protocols, consensus
  names, the shuffled-key control, and :func:`audits`, which gathers them as plain data
  (the module is not named ``audits``: the function re-exported here would hide it);
- :mod:`~labeler.analysis.render` — the report as markdown or strict JSON.
"""

from labeler.analysis.auditing import (
    AuditInputs,
    AuditKeeper,
    ItemValue,
    audits,
    consensus_absent_share,
    consensus_names,
    consensus_records,
    derangement,
    literal_f1,
    shuffled_key_control,
    shuffled_key_scores,
    shuffled_pair_scores,
)
from labeler.analysis.metrics import (
    bootstrap_ci,
    decline_rate,
    declined,
    marker_table,
    mean_f1,
    paired_bootstrap,
    paired_items,
    results_table,
)
from labeler.analysis.render import render_json, render_markdown
from labeler.prompts import CONDITIONS
from labeler.results_table import TABLE_COLUMNS  # the card's columns, for the views
from labeler.scoring.flags import item_flags, item_summary  # the rule lives below

__all__ = [
    "CONDITIONS",
    "TABLE_COLUMNS",
    "AuditInputs",
    "AuditKeeper",
    "ItemValue",
    "audits",
    "bootstrap_ci",
    "consensus_absent_share",
    "consensus_names",
    "consensus_records",
    "decline_rate",
    "declined",
    "derangement",
    "item_flags",
    "item_summary",
    "literal_f1",
    "marker_table",
    "mean_f1",
    "paired_bootstrap",
    "paired_items",
    "render_json",
    "render_markdown",
    "results_table",
    "shuffled_key_control",
    "shuffled_key_scores",
    "shuffled_pair_scores",
]
