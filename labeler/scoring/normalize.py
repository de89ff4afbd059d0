"""The card's surface normalisation, re-exported for the scorer's callers.

It lives in :mod:`labeler.text.normalize` because the lexicon (below the scorer)
indexes its rows by it.
"""

from labeler.text.normalize import normalize, surface_form

__all__ = ["normalize", "surface_form"]
