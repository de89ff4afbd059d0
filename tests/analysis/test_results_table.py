"""The plain-Python results table: hand-worked means, and every number exactly rounded once."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from labeler.prompts import CONDITIONS
from labeler.results_table import (
    METRICS,
    Cell,
    TableRow,
    exact_sum,
    render_csv,
    render_markdown,
    results_table,
)


def by_model(table: list[TableRow]) -> dict[str, dict[str, float | None]]:
    return {row.model: row.values for row in table}


def test_means_skip_missing_scores_and_conditions_not_run_are_none():
    cells: list[Cell] = [
        ("I1", "m", "told", 0.5),
        ("I2", "m", "told", float("nan")),  # no score: not a zero
        ("I3", "m", "told", None),
        ("I4", "m", "told", 1.0),
        ("I1", "m", "blind", math.nan),  # a condition whose only answer has no score
        ("I1", "m", "slot-names", 1.0),  # not a card condition: read, not shown
        ("I1", "other", "slot-names", 1.0),
        ("I1", "unscored", "told", math.nan),  # no score at all: no row
    ]
    values = by_model(results_table(cells))
    assert list(values) == ["m", "other"]
    assert values["m"] == {
        "blind": None,
        "told": 75.0,
        "desc": None,
        "no-image": None,
        "grounded": None,
        "recited": None,
    }
    assert values["other"] == dict.fromkeys(METRICS)  # a row of "—", as the card has shown


def test_grounded_and_recited_pair_items_and_a_repeated_answer_counts_as_its_mean():
    cells: list[Cell] = [
        ("I1", "m", "told", 0.25),
        ("I1", "m", "told", 0.75),  # I1's told is their mean, 0.5, for the pair
        ("I2", "m", "told", 1.0),
        ("I3", "m", "told", 1.0),  # no no-image answer: not paired
        ("I1", "m", "no-image", 0.25),
        ("I2", "m", "no-image", 0.5),
        ("I4", "m", "no-image", 0.0),  # no told answer: not paired
    ]
    (row,) = results_table(cells)
    assert row.values["told"] == 75.0  # every told answer: (.25 + .75 + 1 + 1) / 4
    assert row.values["no-image"] == 25.0  # (.25 + .5 + 0) / 3
    assert row.values["grounded"] == 37.5  # ((.5 + 1) − (.25 + .5)) / 2 over I1, I2
    assert row.values["recited"] == 50.0  # (.25 + .5) / (.5 + 1)


def test_recited_is_none_when_the_paired_told_mean_is_zero():
    cells: list[Cell] = [("I1", "m", "told", 0.0), ("I1", "m", "no-image", 0.5)]
    (row,) = results_table(cells)
    assert (row.values["grounded"], row.values["recited"]) == (-50.0, None)


def test_rows_sort_by_told_descending_then_model_with_told_not_run_last():
    cells: list[Cell] = [
        ("I1", "z/never-told", "blind", 0.9),
        ("I1", "b", "told", 0.5),
        ("I1", "a/never-told", "blind", 0.1),
        ("I1", "a", "told", 0.5),
        ("I1", "c", "told", 0.75),
        ("I1", "d", "told", 0.0),
    ]
    table = results_table(cells)
    assert [r.model for r in table] == ["c", "a", "b", "d", "a/never-told", "z/never-told"]
    assert all(list(r.values) == list(METRICS) for r in table)  # columns in the card's order


def test_means_are_exact_where_left_to_right_float_sums_are_not():
    """A float running sum, then ÷ n, then × 100, rounds three times; the table once."""
    values = [0.1, 2 / 3, 2 / 3]
    cells = [(f"I{i}", "m", "told", f1) for i, f1 in enumerate(values)]
    exact = float(sum(map(Fraction, values)) * 100 / 3)
    assert sum(values) / 3 * 100 == 47.77777777777777 != exact == 47.77777777777778
    (row,) = results_table(cells)
    assert row.values["told"] == exact


def test_exact_sum_is_exact_and_order_independent():
    values = [1e16, 1.0, -1e16, 1e-20, 0.1, 3.0e-300, -0.1]
    want = sum(map(Fraction, values), Fraction(0))
    assert exact_sum(values) == want
    assert exact_sum(reversed(values)) == want
    assert exact_sum([]) == 0
    with pytest.raises(ValueError):
        exact_sum([math.inf, 1.0])


def test_renderings_of_a_row():
    cells: list[Cell] = [
        ("I1", "m,a", "told", 0.75),
        ("I1", "m,a", "no-image", 0.125),
        ("I1", "n", "blind", 0.0),
    ]
    table = results_table(cells)
    assert render_markdown(table).splitlines()[2:] == [
        "| m,a | — | 75.0% | — | 12.5% | +62.5 | 17% |",
        "| n | 0.0% | — | — | — | — | — |",
    ]
    assert render_csv(table).splitlines()[1:] == ['"m,a",,75.0,,12.5,62.5,16.7', "n,0.0,,,,,"]


@pytest.mark.parametrize("value, text", [(0.25, "0.2"), (0.35, "0.4"), (-0.04, "-0.0")])
def test_csv_tenths_round_the_scaled_value_half_to_even_as_always(value, text):
    """The CSV's rounding has been pandas' (numpy's): ×10, to even, ÷10. The float 0.35 is
    just below 0.35, but × 10 rounds to 3.5, so 0.4 (Python's ``round(0.35, 1)`` is 0.3)."""
    table = [TableRow("m", dict.fromkeys(METRICS, value))]
    assert render_csv(table).splitlines()[1] == "m," + ",".join([text] * len(METRICS))


# -- the property: each number is its exact rational definition, rounded once -------------


def rounded(exact: Fraction) -> float:
    """An exact value as the nearest float; past the largest one, infinity (IEEE)."""
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def exact_reference(cells: list[Cell]) -> list[TableRow]:
    """The table computed in fractions, the obvious way, converted to float at the end."""
    scores: dict[str, dict[str, dict[str, list[Fraction]]]] = {}
    for item_id, model, condition, f1 in cells:
        if f1 is not None and not math.isnan(f1):
            mine = scores.setdefault(model, {})
            if condition in CONDITIONS:
                mine.setdefault(condition, {}).setdefault(item_id, []).append(Fraction(f1))
    rows = []
    for model, mine in scores.items():
        values: dict[str, float | None] = {}
        for condition in CONDITIONS:
            answers = [f for item in mine.get(condition, {}).values() for f in item]
            values[condition] = rounded(100 * sum(answers) / len(answers)) if answers else None
        told, no_image = mine.get("told", {}), mine.get("no-image", {})
        both = set(told) & set(no_image)
        t = sum((sum(told[i]) / len(told[i]) for i in both), Fraction(0))
        n = sum((sum(no_image[i]) / len(no_image[i]) for i in both), Fraction(0))
        values["grounded"] = rounded(100 * (t - n) / len(both)) if both else None
        values["recited"] = rounded(100 * n / t) if t > 0 else None
        rows.append(TableRow(model, values))
    told_first = sorted((r for r in rows if r.values["told"] is not None), key=lambda r: r.model)
    told_first.sort(key=lambda r: r.values["told"], reverse=True)  # stable: ties by model
    return told_first + sorted((r for r in rows if r.values["told"] is None), key=lambda r: r.model)


scores = st.one_of(
    st.floats(0, 1),
    st.sampled_from([0.1, 0.2, 0.3, 1 / 3, 2 / 3, 0.05, 0.15, 0.25, 0.35]),
    st.none(),
    st.just(math.nan),
)
cells_strategy = st.lists(
    st.tuples(
        st.sampled_from(["I1", "I2", "I3", "I4"]),
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from([*CONDITIONS, "slot-names"]),
        scores,
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(cells_strategy, st.randoms(use_true_random=False))
@example(  # a subnormal told mean: recited is past the largest float (found by hypothesis)
    [("I2", "c", "no-image", 0.1), ("I2", "c", "told", 2.225073858507203e-309)], random.Random(0)
)
def test_the_table_is_the_exact_table_rounded_once_in_any_order(cells, rnd: random.Random):
    want = exact_reference(cells)
    assert results_table(cells) == want
    rnd.shuffle(cells)
    assert results_table(cells) == want
