"""Synonym-aware name-set F1 and marker accuracy (the dataset card's scoring)."""

from labeler.scoring.match import Match, NameScore, score_names

__all__ = ["Match", "NameScore", "score_names"]
