"""The BLINDSPOT analysis on frames whose answers are known by construction."""

import math

import numpy as np
import pandas as pd
import pytest

from labeler import analysis
from labeler.lexicon import load_starter
from labeler.scoring.rescore import rescore_rows

STARTER = load_starter()


def expected_table(generated) -> dict[str, dict[str, float]]:
    """Mean F1 (%) per model and condition, from the fixture's formula."""
    sums: dict[tuple[str, str], list[float]] = {}
    for (_, model, condition), f1 in generated.expected_f1.items():
        sums.setdefault((model, condition), []).append(f1)
    table: dict[str, dict[str, float]] = {}
    for (model, condition), values in sums.items():
        table.setdefault(model, {})[condition] = 100 * sum(values) / len(values)
    return table


def test_results_table_reproduces_known_means(generated):
    frame = pd.DataFrame(rescore_rows(generated.rows, STARTER))
    table = analysis.results_table(frame)
    want = expected_table(generated)
    assert list(table.columns) == list(analysis.TABLE_COLUMNS)
    assert list(table["model"]) == sorted(want, key=lambda m: -want[m]["told"])
    for row in table.to_dict(orient="records"):
        mine = want[row["model"]]
        for condition in analysis.CONDITIONS:
            if condition in mine:
                assert row[condition] == pytest.approx(mine[condition])
            else:
                assert math.isnan(row[condition])
        if "no-image" in mine:
            assert row["grounded"] == pytest.approx(mine["told"] - mine["no-image"])
            assert row["recited"] == pytest.approx(100 * mine["no-image"] / mine["told"])
        else:
            assert math.isnan(row["grounded"]) and math.isnan(row["recited"])


def card_frame() -> pd.DataFrame:
    """Two single-item models whose means are rows of the card's results table."""
    rows = []
    for model, values in {
        "google/gemini-3.1-pro-preview": (0.558, 0.602, 0.602, 0.425),
        "anthropic/claude-sonnet-4": (0.243, 0.452, 0.440, None),
        "openai/gpt-4o-mini": (0.214, 0.413, 0.397, 0.411),
    }.items():
        for condition, f1 in zip(analysis.CONDITIONS, values, strict=True):
            if f1 is not None:
                rows.append({"item_id": "I1", "model": model, "condition": condition, "f1": f1})
    return pd.DataFrame(rows)


def test_markdown_matches_the_card_format():
    text = analysis.render_markdown(analysis.results_table(card_frame()))
    assert text.splitlines() == [
        "| Model | blind | told | desc | no-image | grounded | recited |",
        "|---|---|---|---|---|---|---|",
        "| google/gemini-3.1-pro-preview | 55.8% | 60.2% | 60.2% | 42.5% | +17.7 | 71% |",
        "| anthropic/claude-sonnet-4 | 24.3% | 45.2% | 44.0% | — | — | — |",
        "| openai/gpt-4o-mini | 21.4% | 41.3% | 39.7% | 41.1% | +0.2 | 100% |",
    ]


def test_csv_leaves_conditions_not_run_empty():
    lines = analysis.render_csv(analysis.results_table(card_frame())).splitlines()
    assert lines[0] == "model,blind,told,desc,no-image,grounded,recited"
    assert lines[2] == "anthropic/claude-sonnet-4,24.3,45.2,44.0,,,"


def paired_frame(n_items: int = 30) -> pd.DataFrame:
    """told and no-image vary a lot across items but differ by exactly 0.2 on each."""
    rng = np.random.default_rng(1)
    rows = []
    for i in range(n_items):
        base = float(rng.uniform(0, 0.8))
        for condition, f1 in (("told", base + 0.2), ("no-image", base), ("blind", base)):
            rows.append({"item_id": f"I{i}", "model": "m", "condition": condition, "f1": f1})
    return pd.DataFrame(rows)


def test_bootstrap_is_paired_seeded_and_brackets_the_estimate():
    frame = paired_frame()
    cis = analysis.bootstrap_ci(frame, n_boot=500, seed=3)
    by_metric = cis.set_index("metric")
    told = by_metric.loc["told"]
    assert told["lo"] < told["estimate"] < told["hi"] and told["hi"] - told["lo"] > 5
    grounded = by_metric.loc["grounded"]
    assert grounded["estimate"] == pytest.approx(20.0)
    # paired: the per-item difference is constant, so the CI has no width
    assert grounded["lo"] == pytest.approx(20.0) and grounded["hi"] == pytest.approx(20.0)
    assert math.isnan(by_metric.loc["desc"]["estimate"])
    pd.testing.assert_frame_equal(cis, analysis.bootstrap_ci(frame, n_boot=500, seed=3))
    assert not cis.equals(analysis.bootstrap_ci(frame, n_boot=500, seed=4))


def test_json_carries_values_and_cis():
    import json

    frame = paired_frame()
    table = analysis.results_table(frame)
    data = json.loads(analysis.render_json(table, analysis.bootstrap_ci(frame, n_boot=200)))
    assert data[0]["model"] == "m" and data[0]["desc"] is None
    assert data[0]["grounded"] == pytest.approx(20.0)
    lo, hi = data[0]["ci"]["told"]
    assert lo <= data[0]["told"] <= hi
    assert data[0]["ci"]["desc"] is None


def test_item_flags():
    frame = pd.DataFrame(
        [
            ("A", "m1", "no-image", 0.5),  # recitable: >= 0.5 with no image
            ("A", "m1", "told", 0.9),
            ("B", "m1", "no-image", 0.49),
            ("B", "m2", "told", 1.0),  # solved once: not unsolved_core
            ("C", "m1", "told", 0.7),  # never run without image
        ],
        columns=["item_id", "model", "condition", "f1"],
    )
    flags = analysis.item_flags(frame)
    assert flags.to_dict(orient="index") == {
        "A": {"recitable": True, "unsolved_core": True},
        "B": {"recitable": False, "unsolved_core": False},
        "C": {"recitable": False, "unsolved_core": True},
    }


def test_decline_rate_reads_raw_text_and_falls_back_to_empty_answers():
    rows = [
        ("m1", "no-image", ["aorta"], "aorta, vena cava"),
        ("m1", "no-image", [], "I'm sorry, but no image was provided, so I cannot label it."),
        ("m1", "no-image", [], ""),  # empty but not a refusal (e.g. truncated)
        ("m1", "no-image", ["heart"], "The image is not attached; from memory: heart"),
        ("m1", "no-image", ["aorta"], "The exact branch cannot be certain; aorta"),
        ("m1", "no-image", [], "I am unable to identify the labelled parts."),
    ]
    frame = pd.DataFrame(rows, columns=["model", "condition", "predicted_names", "raw_text"])
    assert analysis.declined(frame).tolist() == [False, True, False, True, False, True]
    assert analysis.decline_rate(frame).loc["m1", "no-image"] == pytest.approx(50.0)
    no_text = frame.drop(columns="raw_text")
    assert analysis.declined(no_text).tolist() == [False, True, True, False, False, True]


def test_consensus_names_absent_from_the_key():
    key = ["aorta", "left atrium", "mitral valve"]
    frame = pd.DataFrame(
        [
            ("I1", "m1", ["aorta", "coronary sinus", "left atria"], key),
            ("I1", "m2", ["Aorta", "Coronary sinus", "bicuspid valve"], key),
            ("I1", "m3", ["the left atrium", "spleen"], key),
        ],
        columns=["item_id", "model", "predicted_names", "key_names"],
    )
    names = analysis.consensus_names(frame, STARTER)
    got = {(r.name, r.n_models, r.in_key) for r in names.itertuples()}
    assert got == {("aorta", 2, True), ("coronary sinus", 2, False), ("left atria", 2, True)}
    assert analysis.consensus_absent_share(frame, STARTER) == pytest.approx(100 / 3)


def test_derangement_is_seeded_and_moves_every_item():
    items = [f"I{i}" for i in range(50)]
    mapping = analysis.derangement(items, seed=5)
    assert sorted(mapping) == sorted(items) == sorted(mapping.values())
    assert all(a != b for a, b in mapping.items())
    assert mapping == analysis.derangement(items, seed=5)
    with pytest.raises(ValueError):
        analysis.derangement(["only"])


def test_shuffled_key_control_is_near_zero(generated):
    frame = pd.DataFrame(rescore_rows(generated.rows, STARTER))
    real = analysis.mean_f1(frame)
    control = analysis.shuffled_key_control(frame, STARTER, seed=0)
    assert (real.loc["alpha", "told"]) > 40
    assert float(np.nanmax(control.to_numpy())) < 2.0
