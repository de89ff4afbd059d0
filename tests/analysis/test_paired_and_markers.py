"""Paired metrics say how many items they pair; marker accuracy averages items with markers."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from labeler import analysis


def frame() -> pd.DataFrame:
    """m/a: told on 4 items, no-image on 2 of them; m/b: told only. Markers on I1 and I2."""
    rows = [
        ("I1", "m/a", "told", 1.0, 1.0),
        ("I2", "m/a", "told", 0.5, 0.5),
        ("I3", "m/a", "told", 1.0, None),
        ("I4", "m/a", "told", 1.0, None),
        ("I1", "m/a", "no-image", 0.5, 0.0),
        ("I2", "m/a", "no-image", 0.5, 0.0),
        ("I1", "m/b", "told", 0.0, 0.25),
    ]
    columns = ["item_id", "model", "condition", "f1", "marker_accuracy"]
    return pd.DataFrame(rows, columns=columns)


def test_paired_items_counts_items_with_both_told_and_no_image():
    paired = analysis.paired_items(frame())
    assert paired.to_dict() == {"m/a": 2, "m/b": 0}
    table = {row.model: row.values for row in analysis.results_table(frame())}
    # told over 4 items is 87.5; grounded pairs I1, I2 only: (1 + .5)/2 − .5 = 25 points
    assert table["m/a"]["told"] == pytest.approx(87.5)
    assert table["m/a"]["grounded"] == pytest.approx(25.0)


def test_marker_table_averages_only_rows_with_markers():
    markers = analysis.marker_table(frame())
    assert markers is not None
    assert markers.loc["m/a", "told"] == pytest.approx(75.0)
    assert markers.loc["m/a", "no-image"] == pytest.approx(0.0)
    assert markers.loc["m/b", "told"] == pytest.approx(25.0)
    assert pd.isna(markers.loc["m/a", "blind"])
    assert analysis.marker_table(frame().drop(columns="marker_accuracy")) is None
    no_markers = frame().assign(marker_accuracy=None)
    assert analysis.marker_table(no_markers) is None


def test_report_renders_paired_counts_and_marker_accuracy():
    audit = analysis.audits(frame())
    assert audit["paired_items"] == {"m/a": 2, "m/b": 0}
    assert audit["marker_accuracy"]["m/a"]["told"] == pytest.approx(75.0)
    text = analysis.render_markdown(analysis.results_table(frame()), audit)
    assert "items paired: m/a 2, m/b 0" in text
    assert "| m/a | — | 75.0% | — | 0.0% |" in text
    data = json.loads(analysis.render_json(analysis.results_table(frame()), audit=audit))
    assert data["audits"]["paired_items"] == {"m/a": 2, "m/b": 0}
