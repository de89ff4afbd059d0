"""The BLINDSPOT analysis on frames whose answers are known by construction."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from labeler import analysis
from labeler.lexicon import load_starter
from labeler.results_table import METRICS, TableRow, render_csv
from labeler.scoring.match import score_names
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
    assert [list(row.values) for row in table] == [list(METRICS)] * len(want)
    assert [row.model for row in table] == sorted(want, key=lambda m: -want[m]["told"])
    for row in table:
        mine, values = want[row.model], row.values
        for condition in analysis.CONDITIONS:
            if condition in mine:
                assert values[condition] == pytest.approx(mine[condition])
            else:
                assert values[condition] is None
        if "no-image" in mine:
            assert values["grounded"] == pytest.approx(mine["told"] - mine["no-image"])
            assert values["recited"] == pytest.approx(100 * mine["no-image"] / mine["told"])
        else:
            assert values["grounded"] is None and values["recited"] is None


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
    lines = render_csv(analysis.results_table(card_frame())).splitlines()
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
    frame = paired_frame()
    table = analysis.results_table(frame)
    text = analysis.render_json(table, analysis.bootstrap_ci(frame, n_boot=200))
    data = json.loads(text)["models"]
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


def test_item_summary_gives_the_best_scores_behind_the_flags():
    frame = pd.DataFrame(
        [
            ("A", "m1", "no-image", 0.5),
            ("A", "m2", "no-image", 0.25),
            ("A", "m1", "told", 0.9),
            ("B", "m2", "told", 1.0),
            ("B", "m1", "no-image", 0.49),
            ("C", "m1", "told", 0.7),  # never run without image: best no-image is NaN
        ],
        columns=["item_id", "model", "condition", "f1"],
    )
    summary = analysis.item_summary(frame)
    assert summary["best_f1"].to_dict() == {"A": 0.9, "B": 1.0, "C": 0.7}
    assert summary.loc[["A", "B"], "best_no_image"].to_dict() == {"A": 0.5, "B": 0.49}
    assert math.isnan(summary.at["C", "best_no_image"])
    assert summary[["recitable", "unsolved_core"]].equals(analysis.item_flags(frame))


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


def test_consensus_counts_models_not_answers():
    """A model naming a part under every condition is one model; two surfaces of one
    part from one model are still one model; the first surface seen names the class."""
    key = ["nucleus", "alveolus"]
    frame = pd.DataFrame(
        [
            ("I1", "m1", "told", ["alveoli"], key),
            ("I1", "m1", "blind", ["alveolus", "alveoli"], key),
            ("I1", "m2", "told", ["nucleus"], key),
            ("I1", "m2", "desc", ["nucleus"], key),
            ("I1", "m2", "blind", ["nucleus"], key),
            ("I1", "m3", "told", ["Nucleus", "ribosome"], key),
            ("I2", "m1", "told", ["ribosome"], ["ribosome"]),
            ("I2", "m2", "told", ["ribosomes"], ["ribosome"]),
        ],
        columns=["item_id", "model", "condition", "predicted_names", "key_names"],
    )
    names = analysis.consensus_names(frame, STARTER)
    assert list(names.itertuples(index=False, name=None)) == [
        ("I1", "nucleus", 2, True),
        ("I2", "ribosome", 2, True),
    ]


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


def strict_json(text: str):
    """Parse JSON the way strict parsers do: NaN/Infinity are errors."""

    def refuse(constant: str):
        raise ValueError(f"non-standard JSON constant {constant}")

    return json.loads(text, parse_constant=refuse)


def test_recited_is_undefined_not_infinite_when_told_is_zero():
    frame = pd.DataFrame(
        [
            {"item_id": "I1", "model": "m", "condition": "told", "f1": 0.0},
            {"item_id": "I1", "model": "m", "condition": "no-image", "f1": 0.5},
        ]
    )
    table = analysis.results_table(frame)
    assert table[0].values["recited"] is None and table[0].values["grounded"] == -50.0
    assert analysis.render_markdown(table).splitlines()[2] == (
        "| m | — | 0.0% | — | 50.0% | -50.0 | — |"
    )
    text = analysis.render_json(table, analysis.bootstrap_ci(frame, n_boot=50))
    data = strict_json(text)
    assert data["models"][0]["recited"] is None
    json.dumps(data, allow_nan=False)  # nothing non-finite survived parsing either


def test_render_json_never_emits_non_finite_numbers():
    table = [TableRow("m", dict.fromkeys(METRICS, math.inf))]
    data = strict_json(analysis.render_json(table))
    assert all(data["models"][0][c] is None for c in analysis.TABLE_COLUMNS[1:])
    assert analysis.render_markdown(table).count("—") == len(analysis.TABLE_COLUMNS) - 1


def test_grounded_and_recited_use_only_paired_items():
    """told on 4 items, no-image on the 2 hardest: an unpaired difference would be wrong."""
    told = {"I1": 0.2, "I2": 0.4, "I3": 1.0, "I4": 1.0}
    rows = [{"item_id": i, "model": "m", "condition": "told", "f1": f} for i, f in told.items()]
    rows += [
        {"item_id": "I1", "model": "m", "condition": "no-image", "f1": 0.1},
        {"item_id": "I2", "model": "m", "condition": "no-image", "f1": 0.2},
    ]
    frame = pd.DataFrame(rows)
    row = analysis.results_table(frame)[0].values
    assert row["told"] == pytest.approx(65.0)  # the condition mean keeps every told item
    assert row["no-image"] == pytest.approx(15.0)
    assert row["grounded"] == pytest.approx(15.0)  # (30 - 15) over I1, I2; not 65 - 15
    assert row["recited"] == pytest.approx(50.0)  # 15 / 30; not 15 / 65
    ci = analysis.bootstrap_ci(frame, n_boot=300).set_index("metric").loc["grounded"]
    assert ci["lo"] <= row["grounded"] <= ci["hi"]
    assert ci["estimate"] == pytest.approx(row["grounded"])


def audit_frame() -> pd.DataFrame:
    """Three items, two models; answers whose decline and consensus status is known."""
    keys = {"I1": ["aorta", "left atrium"], "I2": ["ileum", "jejunum"], "I3": ["retina", "lens"]}
    answers = [  # (item, model, condition, predicted, raw_text)
        ("I1", "a", "told", ["aorta", "pulmonary vein"], "aorta; pulmonary vein"),
        ("I1", "b", "told", ["aorta", "pulmonary vein"], "aorta, pulmonary vein"),
        ("I2", "a", "told", ["ileum"], "ileum"),
        ("I2", "b", "told", ["ileum", "caecum"], "ileum, caecum"),
        ("I3", "a", "no-image", [], "I'm sorry, I cannot see the image."),
        ("I3", "b", "no-image", ["retina"], "retina"),
    ]
    rows = []
    for item, model, condition, predicted, raw in answers:
        f1 = score_names(predicted, keys[item]).f1
        rows.append(
            {
                "item_id": item,
                "model": model,
                "condition": condition,
                "f1": f1,
                "predicted_names": predicted,
                "key_names": keys[item],
                "raw_text": raw,
            }
        )
    return pd.DataFrame(rows)


def test_audits_bundle_decline_consensus_and_shuffled_key():
    audit = analysis.audits(audit_frame())
    assert audit["decline_rate"]["a"] == {
        "blind": None,
        "told": 0.0,
        "desc": None,
        "no-image": 100.0,
    }
    assert audit["decline_rate"]["b"]["no-image"] == 0.0
    # consensus: aorta, pulmonary vein (I1), ileum (I2): one of three is absent
    assert audit["consensus_names"] == 3
    assert audit["consensus_absent_share"] == pytest.approx(100 / 3, abs=1e-3)
    assert audit["shuffled_key_control"]["a"]["told"] == 0.0
    assert audit["shuffled_key_control"]["b"]["no-image"] == 0.0
    strict_json(analysis.render_json(analysis.results_table(audit_frame()), audit=audit))
    text = analysis.render_markdown(analysis.results_table(audit_frame()), audit)
    assert "## Audits" in text
    assert "| a | — | 0.0% | — | 100.0% |" in text
    assert "Consensus names absent from the key: 33% of 3 names given by ≥ 2 models" in text


def test_audits_without_names_say_so_instead_of_inventing_zeros():
    frame = audit_frame()[["item_id", "model", "condition", "f1"]]
    audit = analysis.audits(frame)
    assert audit == {
        "paired_items": {"a": 0, "b": 0},  # counted from conditions alone: no pair here
        "decline_rate": None,
        "consensus_names": None,
        "consensus_absent_share": None,
        "shuffled_key_control": None,
        "shuffled_key_overlap": None,
        "marker_accuracy": None,
    }
    assert "(needs answer names)" in analysis.render_markdown(analysis.results_table(frame), audit)


def test_rescore_refreshes_stale_flags_only_where_rows_carry_them():
    scores = {"precision": 0.0, "recall": 0.0, "n_pred": 1, "n_key": 1}
    base = {"model": "m", "predicted_names": ["aorta"], "key_names": ["aorta"], **scores}
    rows = [
        {
            "item_id": "A",
            "condition": "no-image",
            **base,
            "f1": 0.0,
            "unsolved_core": True,
            "recitable": False,
            "parse_ok": True,
        },
        {
            "item_id": "B",
            "condition": "told",
            **base,
            "predicted_names": ["x"],
            "f1": 1.0,
            "unsolved_core": False,
            "recitable": True,
        },
        {"item_id": "B", "condition": "blind", **base, "predicted_names": ["x"], "f1": 1.0},
    ]
    out = rescore_rows(rows)
    assert [list(r) for r in out] == [list(r) for r in rows]  # row shape and key order kept
    assert (out[0]["unsolved_core"], out[0]["recitable"]) == (False, True)  # solved, recited
    assert (out[1]["unsolved_core"], out[1]["recitable"]) == (True, False)
    assert "unsolved_core" not in out[2]
