"""EraseEdits: the curator's four edits as one record, to and from the JSON an item stores."""

import pytest

from labeler.erase.edits import EraseEdits
from labeler.erase.mask import Stroke
from labeler.errors import LabelerError

STROKE = {"width": 6.0, "points": [[10.0, 12.0], [30.0, 12.5]]}


def test_json_round_trip_keeps_every_kind_and_drops_empty_ones():
    stored = {"keep": [[1, 2, 3, 4]], "removed_boxes": [[5.5, 6, 7, 8]], "mask_strokes": [STROKE]}
    edits = EraseEdits.from_json(stored)
    assert edits.keep == ((1.0, 2.0, 3.0, 4.0),)
    assert edits.extra_boxes == ()
    assert edits.mask_strokes == (Stroke(6.0, ((10.0, 12.0), (30.0, 12.5))),)
    assert edits.to_json() == stored  # no "extra_boxes": [] written
    assert EraseEdits.from_json(None) == EraseEdits() and EraseEdits().to_json() == {}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"kept": [[1, 2, 3, 4]]}, "unknown erase edit(s): kept"),
        ({"keep": [[1, 2, 3]]}, "[x0, y0, x1, y1]"),
        ({"extra_boxes": [["a", 2, 3, 4]]}, "[x0, y0, x1, y1]"),
        ({"mask_strokes": [{"width": 0, "points": [[1, 1]]}]}, "width"),
        ([["keep"]], "JSON object"),
    ],
)
def test_bad_edits_are_refused_with_a_clear_error(data, words):
    with pytest.raises(LabelerError) as caught:
        EraseEdits.from_json(data)
    assert words in str(caught.value)


def test_with_edit_adds_once_removes_and_clears_by_kind():
    box = (1.0, 2.0, 3.0, 4.0)
    edits = EraseEdits().with_edit("keep", box, add=True).with_edit("keep", box, add=True)
    assert edits.keep == (box,)  # adding the same box twice keeps one
    assert edits.with_edit("keep", box, add=False) == EraseEdits()
    stroke = Stroke.from_json(STROKE)
    painted = edits.with_edit("mask_strokes", stroke, add=True)
    assert painted.cleared("mask_strokes") == edits
    with pytest.raises(LabelerError, match="unknown erase edit 'paint'"):
        edits.cleared("paint")
