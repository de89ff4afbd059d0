"""The type size of a line of raster text, read from its pixels: its x-height.

An OCR box spans a line's ascenders and descenders, so its height says more about the letters
in it ("cytoskeleton" with a "y" and a "k" is taller than "Filaments of") than about the type
it is set in, and a bracketed gloss is as tall as its brackets. The x-height (the height of
the lowercase letters' bodies) is the type size the typesetter chose: a small-type second line
("(Globular protein)" under "Integral protein") is a note of its label, not a label of its
own (:mod:`labeler.harvest.group`).

Measured from the line's ink profile: each row's darkness (paper → 0, the line's darkest
ink → 1; pale drawing behind the letters below ``INK_SHARE`` does not count), summed along
the row. The rows of the letters' bodies carry most of the ink; the x-height is the width
of that plateau at half its height, with the two edges interpolated between rows, so that
lines a fraction of a pixel apart in size are told apart even in small type.
"""

from __future__ import annotations

import numpy as np

#: A pixel counts as ink when at least this share of the way from the paper to the darkest ink.
INK_SHARE = 0.3
#: The plateau's height: this percentile of the row sums (the rows of the letters' bodies).
PLATEAU_PERCENTILE = 90


def x_height(rgb: np.ndarray) -> float | None:
    """The x-height in pixels of the one line of text in ``rgb`` (an H×W×3 crop of its box).

    None when the crop holds no ink to measure (blank, or too small to have a profile).
    """
    if rgb.ndim != 3 or rgb.shape[0] < 3 or rgb.shape[1] < 1:
        return None
    gray = rgb.astype(np.float32).mean(axis=2)
    paper, ink = np.percentile(gray, 90), np.percentile(gray, 1)
    if paper - ink < 1.0:
        return None
    dark = np.clip((paper - gray) / (paper - ink), 0.0, 1.0)
    dark[dark < INK_SHARE] = 0.0
    rows = dark.sum(axis=1)
    half = float(np.percentile(rows, PLATEAU_PERCENTILE)) / 2
    if half <= 0:
        return None
    start, end = _heaviest_run(rows >= half, rows)
    low = start - _fraction(rows, start, start - 1, half)
    high = end + _fraction(rows, end - 1, end, half)
    return float(high - low)


def _heaviest_run(above: np.ndarray, rows: np.ndarray) -> tuple[int, int]:
    """The run of consecutive ``above`` rows with the most ink: [start, end)."""
    edges = np.diff(np.concatenate(([0], above.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    weights = [rows[s:e].sum() for s, e in zip(starts, ends, strict=True)]
    best = int(np.argmax(weights))
    return int(starts[best]), int(ends[best])


def _fraction(rows: np.ndarray, inner: int, outer: int, half: float) -> float:
    """How far past the ``inner`` row (≥ half) the profile crosses ``half`` towards ``outer``."""
    if not 0 <= outer < len(rows) or rows[inner] <= rows[outer]:
        return 0.0
    return float((rows[inner] - half) / (rows[inner] - rows[outer]))


def line_x_height(image: np.ndarray, box: tuple[int, int, int, int], zoom: float) -> float | None:
    """The x-height in points of the line whose pixel ``box`` is in ``image`` (``zoom`` px/pt)."""
    x0, y0, x1, y1 = box
    height = x_height(image[max(0, y0) : y1, max(0, x0) : x1])
    return None if height is None else height / zoom
