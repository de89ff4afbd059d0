"""The turned passes read windows round the tilted lines the upright pass saw, not the figure.

(``rotated.tilted_regions``; the reads themselves are checked on real figures in
``test_rotated_labels`` and ``test_elbow_plate``.)
"""

from __future__ import annotations

import math

from labeler.erase.ocr import OcrBox
from labeler.erase.rotated import MIN_WINDOW, needs_turned_passes, tilted_regions
from tests.erase.tilted_quads import hull, tilted_quad


def _line(text: str, x: float, y: float, length: float, angle: float, height: float = 30.0):
    quad = tilted_quad((x, y), length, angle, height)
    x0, y0, x1, y1 = hull(quad)
    bbox = (int(x0), int(y0), math.ceil(x1), math.ceil(y1))
    return OcrBox(text, bbox, 0.9, round(angle, 1), quad)


SHAPE = (3000, 4000, 3)  # a large page render: height, width


def test_one_window_per_far_apart_tilted_label_none_for_upright_ones():
    lines = [
        _line("Radius", 2000.0, 1500.0, 150.0, 0.0),
        _line("Olecranon", 300.0, 300.0, 200.0, 40.0),
        _line("Ulna", 3300.0, 2500.0, 120.0, -60.0),
    ]
    assert needs_turned_passes(lines)
    windows = sorted(tilted_regions(lines, SHAPE))
    assert len(windows) == 2
    for (x0, y0, x1, y1), line in zip(windows, (lines[1], lines[2]), strict=True):
        assert x1 - x0 >= MIN_WINDOW and y1 - y0 >= MIN_WINDOW  # the detector's own scale
        assert x1 - x0 < SHAPE[1] / 2 and y1 - y0 < SHAPE[0] / 2
        hx0, hy0, hx1, hy1 = line.bbox
        # the hint and its own length beyond it on every side (the rest of a label half read)
        assert x0 <= hx0 - 120 and y0 <= hy0 - 120 and x1 >= hx1 + 120 and y1 >= hy1 + 120
    assert all(not (w[0] <= 2075 <= w[2] and w[1] <= 1515 <= w[3]) for w in windows)


def test_windows_that_overlap_are_read_as_one():
    lines = [
        _line("Radius", 2000.0, 1500.0, 150.0, 0.0),
        _line("Olecranon", 300.0, 300.0, 200.0, 40.0),
        _line("Portion", 700.0, 700.0, 200.0, 40.0),
    ]
    (window,) = tilted_regions(lines, SHAPE)
    assert window[0] <= 100 and window[2] >= 1050


def test_upright_figure_has_no_windows():
    lines = [_line("Radius", 2000.0, 1500.0, 150.0, 0.0), _line("Ulna", 200.0, 100.0, 90.0, 3.0)]
    assert not needs_turned_passes(lines)
    assert tilted_regions(lines, SHAPE) == []
