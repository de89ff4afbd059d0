"""The card's flags over plain columns (the export's path) against the frame rule.

:func:`column_flags` exists so an export need not import pandas; it must give, item for
item, what :func:`item_flags` gives over the same cells, including the edges a frame's
``max`` handles (NaN scores, an item never run without its image, a score a rounding hair
under 1).
"""

from __future__ import annotations

import math
import random

import pandas as pd

from labeler.scoring.flags import column_flags, item_flags


def _frame_flags(cells: list[tuple[str, str, float]]) -> dict[str, tuple[bool, bool]]:
    frame = pd.DataFrame(cells, columns=["item_id", "condition", "f1"])
    flags = item_flags(frame)
    return {
        item: (bool(unsolved), bool(recitable))
        for item, unsolved, recitable in zip(
            flags.index, flags["unsolved_core"], flags["recitable"], strict=True
        )
    }


def _columns(cells: list[tuple[str, str, float]]) -> dict[str, tuple[bool, bool]]:
    if not cells:
        return column_flags([], [], [])
    ids, conditions, f1s = zip(*cells, strict=True)
    return column_flags(ids, conditions, f1s)


def test_flags_by_hand():
    cells = [
        ("A", "no-image", 0.5),  # recited: exactly the threshold
        ("A", "told", 0.9),
        ("B", "told", 1.0),  # solved
        ("B", "no-image", 0.49),
        ("C", "normal", 1.0 - 1e-12),  # solved to rounding
        ("D", "told", 0.7),  # never asked without the image
        ("E", "no-image", math.nan),  # nothing but NaN: both flags false, as the frame says
        ("F", "told", math.nan),
        ("F", "told", 0.2),  # a NaN first does not hide a later score
        ("F", "no-image", 0.8),
        ("F", "no-image", math.nan),
    ]
    expected = {
        "A": (True, True),
        "B": (False, False),
        "C": (False, False),
        "D": (True, False),
        "E": (False, False),
        "F": (True, True),
    }
    assert _columns(cells) == expected
    assert _frame_flags(cells) == expected
    assert _columns([]) == {}


def test_column_flags_agree_with_the_frame_rule_on_random_cells():
    rng = random.Random(17)
    conditions = ("normal", "told", "no-image", "distractor")
    scores = (0.0, 0.25, 0.4999999, 0.5, 0.75, 0.999999999, 1.0 - 1e-10, 1.0, math.nan)
    for _ in range(200):
        cells = [
            (f"i{rng.randrange(12)}", rng.choice(conditions), rng.choice(scores))
            for _ in range(rng.randrange(1, 60))
        ]
        assert _columns(cells) == _frame_flags(cells)
