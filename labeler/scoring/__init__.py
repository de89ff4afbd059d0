"""Synonym-aware name-set F1 and marker accuracy (the dataset card's scoring)."""

from labeler.scoring.markers import MarkerScore, marker_accuracy
from labeler.scoring.match import Match, NameScore, score_counts, score_names
from labeler.scoring.rules import DEFAULT_RULES, RULES, Rules, scoring_version

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
