"""Synonym-aware name-set F1 and marker accuracy (the dataset card's scoring).

The names below are loaded on first use: the CLI builds every command's parser at start and
those read only ``labeler.scoring.rules``, while matching pulls in rapidfuzz and the lexicon,
a tenth of a second of every cold command (``labeler add-item`` scores nothing).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.scoring.markers import MarkerScore, marker_accuracy
    from labeler.scoring.match import Match, NameScore, score_counts, score_names
    from labeler.scoring.rules import DEFAULT_RULES, RULES, Rules, scoring_version

#: Where each public name lives (a module of this package).
_HOMES = {
    "DEFAULT_RULES": "rules",
    "RULES": "rules",
    "MarkerScore": "markers",
    "Match": "match",
    "NameScore": "match",
    "Rules": "rules",
    "marker_accuracy": "markers",
    "score_counts": "match",
    "score_names": "match",
    "scoring_version": "rules",
}

__all__ = [
    "DEFAULT_RULES",
    "RULES",
    "MarkerScore",
    "Match",
    "NameScore",
    "Rules",
    "marker_accuracy",
    "score_counts",
    "score_names",
    "scoring_version",
]


def __getattr__(name: str) -> Any:
    """Load a public name's module when the name is first asked for."""
    if name in _HOMES:
        return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
