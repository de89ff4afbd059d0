"""Colours that carry meaning in the review views, readable in light and dark palettes.

Matched / extra / missed and the F1 heat scale are the vocabulary of every
review screen, so they are defined once here. Each colour is picked for the
palette in use (a dark window gets brighter, less saturated tones) and heat
backgrounds are blended into the palette's base colour so text stays legible.
"""

from __future__ import annotations

import functools

from PySide6.QtGui import QColor, QPalette

from labeler.status import ResponseStatus

# (light, dark) pairs
_TONES: dict[str, tuple[str, str]] = {
    "matched": ("#1b7f3b", "#6fd08c"),
    "extra": ("#c2410c", "#fb923c"),
    "missed": ("#6b7280", "#9ca3af"),
    "failure": ("#b91c1c", "#f87171"),
    "grounded": ("#2563eb", "#60a5fa"),
    "recited": ("#d97706", "#fbbf24"),
}
_LOW, _MID, _HIGH = QColor("#dc2626"), QColor("#eab308"), QColor("#16a34a")

#: Short tags for how a prediction matched a key name (shown next to the name).
HOW_TAGS: dict[str, str] = {
    "exact": "",
    "normalized": "norm",
    "plural": "plural",
    "synonym": "syn",
    "fuzzy": "fuzzy",
}

#: Response statuses that mean the model gave no usable answer (shown as a status, not a
#: heat colour). All but API_ERROR still count, scoring what they hold
#: (:func:`labeler.results.answer_counts`).
FAILURE_STATUSES: frozenset[str] = frozenset(
    {
        ResponseStatus.TRUNCATED,
        ResponseStatus.EMPTY,
        ResponseStatus.REFUSED,
        ResponseStatus.API_ERROR,
    }
)


def is_dark(palette: QPalette) -> bool:
    """True when the palette draws light text on a dark window."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def tone(palette: QPalette, name: str) -> QColor:
    """The foreground colour for ``name`` (matched, extra, missed, failure …) in this palette."""
    light, dark = _TONES[name]
    return QColor(dark if is_dark(palette) else light)


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def heat(palette: QPalette, f1: float) -> QColor:
    """A cell background for an F1 in [0, 1]: red → yellow → green, tinted into the base.

    Worked out once per palette and F1 (to 1/1000, finer than a screen shows): the
    matrix paints hundreds of cells at every repaint.
    """
    base = palette.color(QPalette.ColorRole.Base).rgb()
    return QColor.fromRgb(_heat_rgb(base, is_dark(palette), round(min(1.0, max(0.0, f1)), 3)))


@functools.lru_cache(maxsize=8192)
def _heat_rgb(base: int, dark: bool, f1: float) -> int:
    hue = blend(_LOW, _MID, f1 * 2) if f1 < 0.5 else blend(_MID, _HIGH, (f1 - 0.5) * 2)
    return blend(QColor.fromRgb(base), hue, 0.45 if dark else 0.38).rgb()
