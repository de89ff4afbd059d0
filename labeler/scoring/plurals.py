"""Singular readings of names, re-exported for the scorer's callers.

They live in :mod:`labeler.text.plurals` because the lexicon (below the scorer)
indexes its rows by them.
"""

from labeler.text.plurals import name_forms, singular_forms

__all__ = ["name_forms", "singular_forms"]
