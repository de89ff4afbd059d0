"""Labels the OCR detector returned no box for, found again at their leader lines (``unread``).

The cell-membrane SVG rendered and pasted 180 pt wide at the left margin: the detector's one
pass over the figure boxes 21 lines but not "Carbohydrate" (top right), so it was neither keyed
nor erased. Its leader runs from the word's last letter down to the sugar chain; that line's
free end lies at no box, and beside it is a row of glyphs no box covers, which is read again.
(At 200 pt, at the margin and 300 pt in, main's first pass already reads all 17 names: those
placements would not test the re-detection.)
"""

from __future__ import annotations

import numpy as np

from tests.erase.test_pasted_figures import KEYS
from tests.erase.test_placement_audit import _outside_labels, _pasted, _readable, _rgb

NAME = "cell-membrane-components.svg"
DPI = 200


def test_the_membrane_pasted_small_keys_every_printed_name():
    result, clip = _pasted(NAME, 180.0, 0.0)
    assert result.method == "ocr"
    assert sorted(label.text for label in result.labels) == KEYS[NAME]
    assert _readable(result, NAME) == []
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    outside = _outside_labels(result, clip, DPI, question.shape)
    assert np.array_equal(question[outside], answer[outside])


def test_the_missed_label_is_erased_where_it_is_printed():
    """ "Carbohydrate" is keyed at the word's own place (top right, above its leader) and
    its ink there is gone (measured: 56 dark pixels before, 10 after): the box is the re-read
    line's, mapped back from the window."""
    result, clip = _pasted(NAME, 180.0, 0.0)
    (label,) = [g for g in result.labels if g.text == "Carbohydrate"]
    x0, y0, x1, y1 = label.bbox
    # the word sits in the top tenth of the figure, right of its middle (read off the SVG)
    assert clip[0] + 0.6 * (clip[2] - clip[0]) < x0 < x1 < clip[2]
    assert y0 < clip[1] + 0.1 * (clip[3] - clip[1])
    assert label.anchor is not None and label.anchor[1] > y1  # its leader goes down
    zoom = DPI / 72
    box = (
        slice(int((y0 - clip[1]) * zoom), int((y1 - clip[1]) * zoom) + 1),
        slice(int((x0 - clip[0]) * zoom), int((x1 - clip[0]) * zoom) + 1),
    )
    printed = _dark(_rgb(result.answer_png)[box])
    assert printed > 40  # the word's ink
    # what is left is the leader's stub: it starts at the last letter, inside the box, and is kept
    assert _dark(_rgb(result.question_png)[box]) <= 0.25 * printed


def _dark(rgb: np.ndarray) -> int:
    return int((rgb.astype(int).sum(axis=2) < 3 * 128).sum())
