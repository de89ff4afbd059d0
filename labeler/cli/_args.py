"""Argument types shared by the command modules.

argparse reports a ``type=`` function's ``ValueError`` as "invalid <function name> value",
which names Python, not the option. These raise ``ArgumentTypeError`` with what the option
needs instead, and argparse prints that after the option's name. (The leading underscore keeps
this module out of the command discovery in ``labeler.cli``.)
"""

from __future__ import annotations

import argparse
import math


def clip(text: str) -> tuple[float, float, float, float]:
    """``X0,Y0,X1,Y1`` in PDF points (top-left origin) -> a clip tuple."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise argparse.ArgumentTypeError(
            f"needs four numbers X0,Y0,X1,Y1 in PDF points, e.g. 80,180,520,460 (got {text!r})"
        )
    x0, y0, x1, y1 = values
    if x1 <= x0 or y1 <= y0:
        raise argparse.ArgumentTypeError(
            f"needs X1 > X0 and Y1 > Y0 (PDF points, top-left origin; got {text!r})"
        )
    return (x0, y0, x1, y1)


def positive_int(text: str) -> int:
    """A whole number ≥ 1 (pages are 1-based; a resolution or a concurrency of 0 means nothing)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"needs a whole number of at least 1 (got {text!r})")
    return value
