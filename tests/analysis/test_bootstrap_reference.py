"""The vectorised bootstrap equals a plain loop over the same seeded draws.

:func:`labeler.analysis.bootstrap_ci` computes each replicate's means as a
count-weighted matrix product. The reference below does what the method says,
one replicate and one item at a time: draw the items (the same generator calls,
so the same draws), average each metric over the drawn items that have it, take
the percentiles.
"""

import math

import numpy as np
import pandas as pd
import pytest

from labeler import analysis
from labeler.prompts import CONDITIONS


def reference_ci(rows, n_boot, seed, level=0.95):
    """``{(model, metric): (estimate, lo, hi)}`` by plain loops (F1 in %)."""
    rng = np.random.default_rng(seed)
    tail = (1 - level) / 2 * 100
    out = {}
    for model in sorted({r[1] for r in rows}):
        cells = {}
        for item, m, condition, f1 in rows:
            if m == model:
                cells.setdefault(item, {}).setdefault(condition, []).append(f1 * 100)
        items = sorted(cells)
        values = []  # per item: metric -> value or None
        for item in items:
            means = {c: sum(v) / len(v) for c, v in cells[item].items()}
            row = {c: means.get(c) for c in CONDITIONS}
            told, none = row["told"], row["no-image"]
            row["grounded"] = None if told is None or none is None else told - none
            values.append(row)
        draws = rng.integers(0, len(items), size=(n_boot, len(items)))
        for metric in (*CONDITIONS, "grounded"):
            known = [v[metric] for v in values if v[metric] is not None]
            estimate = sum(known) / len(known) if known else math.nan
            replicates = []
            for b in range(n_boot):
                drawn = [values[i][metric] for i in draws[b] if values[i][metric] is not None]
                replicates.append(sum(drawn) / len(drawn) if drawn else math.nan)
            kept = [r for r in replicates if not math.isnan(r)]
            if kept:
                lo, hi = np.percentile(kept, [tail, 100 - tail])
            else:
                lo = hi = math.nan
            out[(model, metric)] = (estimate, lo, hi)
    return out


def uneven_rows():
    """Two models; b lacks desc entirely and no-image on some items; a repeated cell."""
    rng = np.random.default_rng(7)
    rows = []
    for i in range(12):
        for condition in CONDITIONS:
            rows.append((f"I{i:02d}", "a", condition, float(rng.uniform())))
            if condition != "desc" and not (condition == "no-image" and i % 3 == 0):
                rows.append((f"I{i:02d}", "b", condition, float(rng.choice([0.0, 0.5, 1.0]))))
    rows.append(("I00", "a", "told", 0.25))  # two rows for one cell: averaged, as a pivot does
    return rows


@pytest.mark.parametrize("seed", [0, 11])
def test_vectorised_bootstrap_equals_the_plain_loop(seed):
    rows = uneven_rows()
    frame = pd.DataFrame(rows, columns=["item_id", "model", "condition", "f1"])
    cis = analysis.bootstrap_ci(frame, n_boot=300, seed=seed)
    expected = reference_ci(rows, n_boot=300, seed=seed)
    assert len(cis) == len(expected) == 2 * (len(CONDITIONS) + 1)
    for record in cis.itertuples(index=False):
        want = expected[(record.model, record.metric)]
        got = (record.estimate, record.lo, record.hi)
        assert got == pytest.approx(want, rel=1e-9, abs=1e-9, nan_ok=True)
    desc_b = cis[(cis["model"] == "b") & (cis["metric"] == "desc")].iloc[0]
    assert math.isnan(desc_b["estimate"]) and math.isnan(desc_b["lo"])  # not run: no CI
    grounded_b = expected[("b", "grounded")]
    assert grounded_b[1] < grounded_b[2]  # the reference itself resamples: a real interval
