"""Words that tell parts apart: the expert rules' guards against merging them.

Two names that differ only in a numeral (photosystem I/II), an ordinal
(first/second molar), a side or direction (left/right, afferent/efferent), a
vessel type (artery/vein) or a germ-layer prefix (endoderm/ectoderm) are
different parts, however close their spelling. The card's fuzzy guards look at
characters only and merge several of these; the expert fuzzy rule and the
hedge rule (``left/right atrium`` names two parts) both ask this module.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import OSA

#: Words whose presence or absence changes the part.
CONTRAST_WORDS: frozenset[str] = frozenset(
    {
        "left", "right", "superior", "inferior", "anterior", "posterior", "dorsal", "ventral",
        "medial", "lateral", "proximal", "distal", "upper", "lower", "inner", "outer", "middle",
        "internal", "external", "interna", "externa", "internus", "externus", "major", "minor",
        "greater", "lesser", "ascending", "descending", "transverse", "afferent", "efferent",
        "artery", "arteries", "arteriole", "arterioles", "vein", "veins", "venule", "venules",
        "primary", "secondary", "tertiary", "first", "second", "third", "fourth", "fifth",
        "sixth", "seventh", "eighth", "ninth", "tenth", "sensory", "motor", "sympathetic",
        "parasympathetic", "rough", "smooth", "white", "gray", "deep", "superficial",
        "maximus", "medius", "minimus", "premolar", "molar", "incisor", "canine", "endoderm",
        "ectoderm", "mesoderm", "endodermis", "nucleus", "nucleolus",
    }
)  # fmt: skip

#: Word parts that name different cells or layers (osteoblast/osteoclast/osteocyte).
MORPHEMES: tuple[frozenset[str], ...] = (
    frozenset({"blast", "clast", "cyte"}),
    frozenset({"endo", "ecto", "meso", "epi", "peri", "hypo", "hyper", "sub", "supra"}),
    frozenset({"afferent", "efferent"}),
    frozenset({"abduct", "adduct"}),
)

#: One-letter-apart pairs that are different structures.
CONFUSABLE: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        ("chromatid", "chromatin"),
        ("chromatids", "chromatin"),
        ("peroneal", "perineal"),
        ("ileum", "ilium"),
        ("ileal", "iliac"),
        ("humeral", "humoral"),
        ("vesicle", "vesical"),
        ("stoma", "stroma"),
        ("stomata", "stromata"),
    )
)

_ANY_MORPHEME = re.compile("|".join(sorted({m for group in MORPHEMES for m in group})))
_DIGIT = re.compile(r"\d")
_ROMAN = re.compile(r"(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})")  # i … xxxix, as normalised


def is_contrast(word: str) -> bool:
    """Does this word alone distinguish two parts (side, numeral, ordinal, one letter…)?"""
    return word in CONTRAST_WORDS or _is_marker(word)


def _is_marker(word: str) -> bool:
    """A numeral or a letter: one slip in it is a different part, not a typo."""
    return len(word) == 1 or _ROMAN.fullmatch(word) is not None or _DIGIT.search(word) is not None


def is_hedge(a: str, b: str) -> bool:
    """Are two alternatives of one answer different parts (``left/right atrium``)?

    Both name a side, numeral or other contrast word, and not the same ones;
    ``left atrium (LA)`` is one part with its abbreviation.
    """
    contrast_a = {word for word in a.split() if is_contrast(word)}
    contrast_b = {word for word in b.split() if is_contrast(word)}
    return bool(contrast_a) and bool(contrast_b) and contrast_a != contrast_b


def typo_close(a: str, b: str) -> bool:
    """The expert fuzzy rule on two normalised names that passed the card's guards.

    Same number of words, and every differing word pair is one slip apart
    (optimal string alignment distance 1: a missing, extra, wrong or swapped
    letter), is not a numeral or letter, is not two contrast words
    (``premolar``/``molar``), has no contrasting word part and is not a known
    confusable pair; a slip inside one contrast word (``arterys``) is a typo.
    ``nucleus``/``nucleolus`` (two letters) and ``type I``/``type II`` (a
    numeral) fail; ``mitochondrian`` passes.
    """
    words_a, words_b = a.split(" "), b.split(" ")
    if len(words_a) != len(words_b):
        return False
    for word_a, word_b in zip(words_a, words_b, strict=True):
        if word_a == word_b:
            continue
        if OSA.distance(word_a, word_b, score_cutoff=1) > 1:
            return False
        marker_a, contrast_a, parts_a = _kind(word_a)
        marker_b, contrast_b, parts_b = _kind(word_b)
        if marker_a or marker_b or (contrast_a and contrast_b):  # I/II, left/right, …
            return False
        if frozenset((word_a, word_b)) in CONFUSABLE:
            return False
        for found_a, found_b in zip(parts_a, parts_b, strict=False):  # () holds no part
            if found_a and found_b and found_a != found_b:
                return False
    return True


#: What :func:`typo_close` needs two names to share (see :func:`typo_bucket`).
TypoBucket = tuple[int, tuple[tuple[int, str], ...]]


def typo_bucket(text: str) -> TypoBucket:
    """The number of words of a normalised name and each numeral or letter word, by place.

    :func:`typo_close` lets two differing words through only when neither is a numeral or
    a letter, so two names it accepts have as many words and the very same marker words
    at the same places: equal buckets. Names of different buckets are never typo-close,
    so the expert fuzzy level compares only names of one bucket and skips the rest
    unmeasured (``structure 1714`` never meets ``structure 0317``: at 100k answers that
    was 1.8M similarity calls, 97% of them between such names).
    """
    words = text.split(" ")
    return len(words), tuple((i, word) for i, word in enumerate(words) if _kind(word)[0])


@lru_cache(maxsize=100_000)
def _kind(word: str) -> tuple[bool, bool, tuple[frozenset[str], ...]]:
    """Is ``word`` a marker, a contrast word, and which :data:`MORPHEMES` parts it holds."""
    parts: tuple[frozenset[str], ...] = ()
    if _ANY_MORPHEME.search(word):  # rare: most words hold none of the parts
        parts = tuple(frozenset(m for m in group if m in word) for group in MORPHEMES)
    return _is_marker(word), is_contrast(word), parts
