"""The card's fuzzy level: which two normalised names count as one misspelt name."""

from __future__ import annotations

from rapidfuzz.fuzz import ratio

#: The card's fuzzy guards.
FUZZY_MIN_LEN = 7
FUZZY_PREFIX = 3
FUZZY_MAX_LEN_DIFF = 3
FUZZY_MIN_SIMILARITY = 0.86


def fuzzy_similar(a: str, b: str) -> bool:
    """The card's fuzzy rule on two normalised names.

    Guards: both >= 7 characters, first 3 identical, lengths within 3, and
    similarity >= 0.86 measured as ``rapidfuzz.fuzz.ratio / 100`` — the
    normalised Indel similarity ``1 - indel_distance / (len(a) + len(b))``. We
    use this ratio (not ``partial_ratio`` or token ratios) because it is the one
    that reproduces the card's own example (``nucleus`` vs ``nucleolus`` =
    0.875), it is symmetric, and it scores insertions/deletions — the shape of
    morphological variants and typos (``mitochondrian``) — rather than
    rewarding one name merely containing another.
    """
    return (
        len(a) >= FUZZY_MIN_LEN
        and len(b) >= FUZZY_MIN_LEN
        and a[:FUZZY_PREFIX] == b[:FUZZY_PREFIX]
        and abs(len(a) - len(b)) <= FUZZY_MAX_LEN_DIFF
        and ratio(a, b, score_cutoff=FUZZY_MIN_SIMILARITY * 100) > 0
    )
