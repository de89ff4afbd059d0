"""Synonym-aware name-set F1 and marker accuracy (the dataset card's scoring)."""

from labeler.scoring.markers import MarkerScore, marker_accuracy
from labeler.scoring.match import Match, NameScore, score_names

__all__ = ["MarkerScore", "Match", "NameScore", "marker_accuracy", "score_names"]
