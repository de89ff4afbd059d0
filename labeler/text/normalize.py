"""Surface normalisation of part names.

Models and textbooks write the same name in many surfaces (``Loop of Henle``,
``Henle's loop``, ``the loop-of-Henle``). A scorer that compares raw strings
makes a capable model look incapable (readout audit, §8 of the readout-limit
paper), so every comparison goes through :func:`normalize` first.

Rules, in order: Unicode NFKC and case folding; typographic apostrophes and
dashes unified; possessive ``'s`` dropped; hyphens, slashes and underscores
become spaces; other punctuation is removed; whitespace collapsed; one leading
article (``the``, ``a``, ``an``) dropped — except a capital ``A`` before a word,
which names a structure by its letter (``A band``, ``A site``), not an article;
``X of Y`` rewritten as ``Y X`` so the possessive word orders meet
(``loop of Henle`` = ``Henle's loop`` = ``Henle loop``).
The head noun then ends the string, which is where the plural rules look.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
_POSSESSIVE = re.compile(r"(?<=\w)'s\b")
_SEPARATORS = re.compile(r"[-\u2010-\u2015_/\\]+")
_NON_WORD = re.compile(r"[^\w\s]+")
_SPACES = re.compile(r"\s+")
_ARTICLES = ("the ", "a ", "an ")
_PLAIN = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")
_LETTER_NAME = re.compile(r"^\s*A[\s\-\u2010-\u2015]+\w")


@lru_cache(maxsize=200_000)
def normalize(name: str) -> str:
    """The comparison form of ``name`` (see module docstring); ``""`` for blank input."""
    text = surface_form(name)
    head, sep, tail = text.partition(" of ")
    if sep and head and tail and " of " not in tail:
        text = f"{drop_article(tail)} {head}"
    return text


def surface_form(name: str) -> str:
    """Every rule of :func:`normalize` but the ``X of Y`` rewrite.

    The expert rules read ``X of Y`` themselves (context, adjective forms), so
    they start from this form.
    """
    text = name.casefold()
    if not _PLAIN.fullmatch(text):  # fast path: lower-case words and single spaces
        text = unicodedata.normalize("NFKC", text).casefold().translate(_APOSTROPHES)
        text = _POSSESSIVE.sub("", text)
        text = _SEPARATORS.sub(" ", text)
        text = _NON_WORD.sub("", text)
        text = _SPACES.sub(" ", text).strip()
    return drop_article(text, keep_a=_LETTER_NAME.match(name) is not None)


def drop_article(text: str, keep_a: bool = False) -> str:
    """Drop one leading article; ``keep_a`` keeps a capital-letter name like ``A band``."""
    for article in _ARTICLES:
        if keep_a and article == "a ":
            continue
        if text.startswith(article) and len(text) > len(article):
            return text[len(article) :]
    return text
