"""The leak check's column path finds every string the value-by-value walk finds.

A batch of results.jsonl rows (flat, same fields) is read a column at a time; any other
batch is walked. Both must give the same set, or a private string in one odd row (a name
list holding a non-string, a nested value, a row with other fields) could go unsearched.
"""

from __future__ import annotations

import copy

import pytest

from labeler.errors import ExportError
from labeler.export.validate import LeakCheck, _strings, _walk


def _row(n: int, **changes):
    row = {
        "item_id": f"BIO-{n}",
        "model": "m1",
        "condition": "told",
        "f1": 0.5,
        "n_pred": 2,
        "predicted_names": ["aorta", f"vein {n}"],
        "key_names": ["aorta", "heart"],
        "subject": "heart",
        "unsolved_core": True,
        "slot_accuracy": None,
    }
    return row | changes


@pytest.mark.parametrize(
    "rows",
    [
        [_row(1), _row(2), _row(3)],
        [_row(1), _row(2, predicted_names=[])],
        [_row(1), _row(2, predicted_names=["aorta", 3, ["Hidden Atlas"]])],  # not all strings
        [_row(1), _row(2, subject=None), _row(3, slot_accuracy="odd")],
        [_row(1), _row(2, extra={"nested": ["Hidden Atlas"], "Key Title": 1})],  # other fields
        [_row(1), {k: v for k, v in reversed(_row(2).items())}],  # other order
        [_row(1), ["a list", {"in": "place"}], "a string"],  # not rows at all
        [{"only": "one field"}, {"only": "another"}],
        [_row(1, markers={"A": "aorta", "B": None})],
        [],
    ],
)
def test_the_column_path_finds_what_the_walk_finds(rows):
    assert _strings(rows) == _walk(copy.deepcopy(rows))


def test_a_private_string_in_one_name_of_one_row_stops_the_export():
    rows = [_row(n) for n in range(1, 500)]
    rows[321]["predicted_names"].append("from the Hidden Publisher Atlas 2024")
    check = LeakCheck(["Hidden-Publisher-Atlas-2024"])
    check.rows("results.jsonl", rows)
    with pytest.raises(ExportError, match=r"results\.jsonl: contains private text"):
        check.done()


def _every_string(value) -> set:
    """Every string at any depth, dict keys included: the walk's plain definition."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*map(_every_string, value.values()))
    if isinstance(value, list | tuple):
        return set().union(*map(_every_string, value))
    return set()


@pytest.mark.parametrize(
    "value",
    [
        [["aorta", "great artery", "same"], ["aorta", "vena cava", "distinct"]],  # lexicon rows
        [["aorta", "heart"], ["Hidden Atlas", 3], []],  # one row not all strings
        [["aorta"], [["Hidden Atlas"]], ("tuple", "row")],  # deeper, and a tuple beside lists
        [[], []],
        [{"lexicon": [["a", "b", "same"]], "synonyms": {"a": ["b"]}, "distinct": {}}],
        [[{"Key Title": ["Hidden Atlas"]}], ["plain"]],
    ],
)
def test_the_walk_finds_every_string_of_nested_rows(value):
    assert _walk(copy.deepcopy(value)) == _every_string(value)
