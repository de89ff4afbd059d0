"""encode_columns: the bytes ``json.dumps(row, ensure_ascii=False)`` gives, from columns.

The export writes results.jsonl from the columns it checked (issue #17), encoding repeated
values and an item's repeated fields once. Any difference from ``json.dumps`` would change
a published file, so the encoder is compared with it on generated rows (unicode, quotes,
control characters, nulls, nested lists, floats with long reprs, ints beside bools) and on
the golden export's results.
"""

from __future__ import annotations

import json
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.export.encode import encode_columns
from tests.export.full_export import GOLDEN

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.1 + 0.2, 1 / 3, sys.float_info.max, 5e-324, -0.0, 1e16, 1.0, 1])
    | _TEXT
    | st.sampled_from(['"', "\\", "\n", "\x00\x1f", "é\u2028", "%s", "{}", "true"])
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4), max_leaves=8)


@st.composite
def _table(draw: st.DrawFn) -> tuple[list[dict], dict[str, list], dict[str, list]]:
    """Rows, their columns, and a ``keyed`` argument whose keys are true of the rows."""
    names = draw(st.lists(_TEXT | st.sampled_from(["%", "%d", "{x}"]), min_size=1, unique=True))
    n = draw(st.integers(min_value=0, max_value=6))
    # each row is one of a few "items": a field may repeat the value of its row's item
    items = [{name: draw(_VALUES) for name in names} for _ in range(3)]
    item_of = [draw(st.integers(0, 2)) for _ in range(n)]
    repeated = set(draw(st.lists(st.sampled_from(names), unique=True)))
    rows = [
        {name: items[i][name] if name in repeated else draw(_VALUES) for name in names}
        for i in item_of
    ]
    columns = {name: [row[name] for row in rows] for name in names}
    keyed = dict.fromkeys(repeated, item_of)
    return rows, columns, keyed


def _dumps(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(_table())
def test_the_bytes_are_json_dumps_of_each_row(table):
    rows, columns, keyed = table
    assert encode_columns(columns) == _dumps(rows)
    assert encode_columns(columns, keyed) == _dumps(rows)


def test_a_float_column_with_an_int_or_a_bool_in_it_keeps_each_value_s_own_text():
    columns = {"a": [1.5, 1, True, 2.0], "b": [True, 1, 1.0, None], "c": [1, 2, 3, 4]}
    rows = [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]
    assert encode_columns(columns) == _dumps(rows)


def test_the_golden_export_s_results_encode_to_the_same_bytes():
    for kind in ("plain", "slots-private"):
        data = (GOLDEN / kind / "results.jsonl").read_bytes()
        rows = [json.loads(line) for line in data.splitlines()]
        columns = {name: [row[name] for row in rows] for name in rows[0]}
        per_item = ("key_names", "subject", "tier", "unsolved_core", "recitable")
        keyed = dict.fromkeys(per_item, columns["item_id"])
        assert len(rows) > 10
        assert encode_columns(columns, keyed) == data


def _rows(columns: dict[str, list]) -> list[dict]:
    return [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def test_a_float_column_holding_both_zeros_keeps_each_zero_s_text():
    # a column's float texts are made once per distinct value, and -0.0 == 0.0
    columns = {"f1": [0.5, 0.0, -0.0, 0.5, 1 / 3, 0.0], "recall": [-0.0, 0.0, 1.0, 1.0, 0.0, -0.0]}
    assert encode_columns(columns) == _dumps(_rows(columns))
    assert b'"f1": -0.0' in encode_columns(columns)


def test_name_lists_are_written_as_json_writes_them():
    # each distinct name is encoded once and the lists joined from the encoded names
    names = [["aorta", 'the "left" vein', "é\u2028"], [], ["aorta"], ["\n\x00", "%s", "a, b"]]
    columns = {"predicted_names": names, "key_names": [["x"], ["x"], [], ["x", "aorta"]]}
    assert encode_columns(columns) == _dumps(_rows(columns))
