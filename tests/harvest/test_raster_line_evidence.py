"""What the grouper reads off two stacked OCR lines: their leaders' ends and their x-heights.

Raster leaders are found per line in the pixels, so one leader leaving from between a label's
two lines is found twice, under two idents, ending at one point; and an OCR box's height
counts brackets and descenders, so box heights of one label's lines may differ by more than
type sizes ever do while their x-heights agree. (Measured on the bone figure pasted 200 and
280 pt wide; ``tests/erase/test_pasted_small.py`` holds those placements.)
"""

from __future__ import annotations

from labeler.harvest import group_labels
from labeler.harvest.anchors import Leader
from labeler.harvest.fragments import Fragment


def _line(text, top, height, x_height, leader=None, left=515.0, width=30.0):
    bbox = (left, top, left + width, top + height)
    return Fragment(text, bbox, height / 1.2, "ocr", parts=[bbox], leader=leader, x_height=x_height)


def _names(lines) -> list[str]:
    return [group.text for group in group_labels(lines)]


def test_two_lines_finding_one_leader_end_are_one_label():
    # the bone figure at 200 pt: both lines' leaders end at (496.94, 184.68)
    lines = [
        _line("Trabecular", 177.1, 7.6, 3.37, Leader(-1, ((496.94, 184.68),))),
        _line("(spongy) bone", 184.3, 7.6, 3.38, Leader(-2, ((496.94, 184.68),))),
    ]
    assert _names(lines) == ["Trabecular (spongy) bone"]


def test_stacked_labels_whose_leaders_end_apart_stay_two():
    lines = [
        _line("Cranium", 177.1, 7.6, 3.37, Leader(-1, ((496.94, 180.0),))),
        _line("Mandible", 184.3, 7.6, 3.38, Leader(-2, ((496.94, 196.0),))),
    ]
    assert _names(lines) == ["Cranium", "Mandible"]


def test_a_gloss_boxed_taller_by_its_brackets_joins_its_label():
    # the bone figure at 280 pt: boxes 9.0 and 12.2 pt tall, x-heights 4.61 and 4.49 pt
    lines = [
        _line("Periosteum", 187.6, 9.0, 4.61, width=41.0),
        _line("(membrane covering bone)", 196.2, 12.2, 4.49, width=95.0),
    ]
    assert _names(lines) == ["Periosteum (membrane covering bone)"]


def test_a_line_in_much_larger_type_is_another_label():
    lines = [
        _line("Nucleus", 187.6, 9.0, 3.1, width=41.0),
        _line("Cytoplasm", 196.2, 12.2, 4.6, width=60.0),
    ]
    assert _names(lines) == ["Nucleus", "Cytoplasm"]


def test_boxes_alike_join_whatever_the_x_heights_say():
    # an all-capitals line's "x-height" is its cap height
    lines = [
        _line("Mitochondrial", 187.6, 9.0, 3.1, width=50.0),
        _line("DNA", 196.2, 9.0, 4.4, width=20.0),
    ]
    assert _names(lines) == ["Mitochondrial DNA"]
