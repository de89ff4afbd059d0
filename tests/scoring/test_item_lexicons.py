"""items.jsonl's per-item lexicon rows: read as written, and a malformed row is an error.

``read_item_lexicons`` checks every row with set tests over an item's rows rather than a
test per value; each way a row can be wrong must still be refused, naming the item.
"""

import json

import pytest

from labeler.scoring.rescore import ResultsFileError, read_item_lexicons

GOOD = [["trachea", "windpipe", "same"], ["ileum", "ilium", "distinct"]]


def write(tmp_path, *items):
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return path


def test_rows_are_read_per_item_and_items_without_rows_left_out(tmp_path):
    path = write(
        tmp_path,
        {"item_id": "A", "lexicon": GOOD},
        {"item_id": "B", "lexicon": []},
        {"item_id": "C"},
        {"item_id": "D", "lexicon": GOOD[1:]},
    )
    assert read_item_lexicons(path) == {"A": GOOD, "D": GOOD[1:]}


@pytest.mark.parametrize(
    "item",
    [
        {"item_id": "A", "lexicon": [*GOOD, ["trachea", "windpipe"]]},  # two values
        {"item_id": "A", "lexicon": [*GOOD, ["a", "b", "same", "x"]]},  # four
        {"item_id": "A", "lexicon": [*GOOD, ["trachea", 7, "same"]]},  # not a string
        {"item_id": "A", "lexicon": [*GOOD, ["trachea", None, "same"]]},
        {"item_id": "A", "lexicon": [*GOOD, ["trachea", ["windpipe"], "same"]]},
        {"item_id": "A", "lexicon": [*GOOD, "trachea,windpipe,same"]},  # not a list
        {"item_id": "A", "lexicon": [*GOOD, {"canonical": "a", "synonym": "b"}]},
        {"item_id": "A", "lexicon": {"trachea": "windpipe"}},
        {"item_id": "A", "lexicon": "trachea"},
        {"item_id": 3, "lexicon": GOOD},  # no string id
        {"lexicon": GOOD},
    ],
)
def test_a_malformed_row_is_refused_naming_the_item(tmp_path, item):
    path = write(tmp_path, {"item_id": "Z", "lexicon": GOOD}, item)
    with pytest.raises(ResultsFileError, match=r"item 2: 'lexicon' must be"):
        read_item_lexicons(path)
