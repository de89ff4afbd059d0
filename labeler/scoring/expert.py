"""The expert rules: read a name the way a biology grader reads it.

A grader ignores the marker a model writes before a name (``B: pulmonary
artery``, ``(C) left atrium``, ``Label 4: bronchus``) but keeps a letter that is
part of the name (``A band``, ``T tubule``); credits each alternative the model
offers for one part (``trachea (windpipe)``, ``trachea/windpipe``) but not a hedge
between two parts (``left/right atrium``); and does not care about wording that
leaves the part unchanged: ``of the heart``, a redundant head (``deltoid
muscle``), ``X of Y`` for the adjective form (``arch of the aorta`` = ``aortic
arch``), Latin word order, Latin plurals of every word, hyphenated or dotted
abbreviations (``A-V node``), diacritics, a possessive without its apostrophe
and British spelling anywhere in a word. Qualifiers that change the part
(``outer membrane``, ``inner ear``) are kept, so they never match the bare noun.

:func:`readings` turns one surface into the normalised texts it can mean, each
with the rules that produced it, so a match can say why it was made.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from labeler.scoring import wording
from labeler.scoring.contrast import is_hedge
from labeler.text.normalize import drop_article, surface_form
from labeler.text.plurals import singular_forms

_MARK = r"(?:\d{1,2}|[A-Za-z]\d?)"
_PREFIX = re.compile(
    r"^(?:(?:(?:label|structure|part|marker|letter|number|item|no\.)\s+#?|#)\s*"
    r"(?:\d{1,2}\s*[:.)\]\-\u2013\u2014]?|[A-Za-z]\d?\s*[:.)\]\-\u2013\u2014])\s+"
    # Label 4: bronchus, label 4 bronchus, Part C - diaphragm, #5 cell wall (not "part a band")
    rf"|[(\[]\s*{_MARK}\s*[)\]]\s*[:.\-\u2013\u2014]?\s*"  # (C) left atrium, [8] stomata
    rf"|{_MARK}\s*[:.)\]]\s+"  # 1. aorta, B: pulmonary artery, E) mitochondria
    rf"|{_MARK}\s+[\-\u2013\u2014]\s+)",  # G - rough ER, H – nucleolus
    re.I,
)
_SUFFIX = re.compile(rf"\s*[(\[]\s*{_MARK}\s*[)\]]\s*$")  # aorta (B), pulmonary trunk [C]
_PAREN = re.compile(r"^(?P<before>[^()\[\]]*)[(\[](?P<inside>[^()\[\]]+)[)\]](?P<after>.*)$")
_DOTTED = re.compile(r"(?<![\w.])((?:[A-Za-z]\.){2,})")  # A.V. node, S.A. node
_LETTERS = re.compile(r"(?<![A-Za-z])[A-Za-z](?:[\-\u2010-\u2015][A-Za-z])+(?![A-Za-z])")  # A-V
_LETTER_ABBR = re.compile(r"(?<![A-Za-z])([A-Za-z])[\-\u2010-\u2015](?=[A-Z]{2,}\b)")  # m-RNA
_HYPHENS = re.compile(r"[\-\u2010-\u2015]")
_JOINERS = re.compile(r"[.\-\u2010-\u2015]")
_OR = re.compile(r"\s+or\s+", re.I)
_TIGHT_SLASH = re.compile(r"\S/\S")
_PLAIN = re.compile(r"[a-z]+(?: [a-z]+)*")
#: At most this many plural readings per name (every word can be plural).
_MAX_FORMS = 64
#: More alternatives than this in one name is not one part's names (and would cost n²).
_MAX_ALTERNATIVES = 8


class Reading(NamedTuple):
    """One normalised text a surface can mean, and the rules that produced it.

    A ``lossy`` reading drops information (``cortex of the kidney`` read as
    ``cortex``): it may match a key, but it never makes two predictions the same.
    """

    text: str
    rules: tuple[str, ...]
    lossy: bool = False


class Reader(NamedTuple):
    """Every reading of one surface; ``hedge`` when its alternatives are two parts."""

    readings: tuple[Reading, ...]
    hedge: bool
    alternatives: bool


@lru_cache(maxsize=200_000)
def read(raw: str) -> Reader:
    """Every way an expert reads ``raw`` (see the module docstring)."""
    if _is_plain(raw):
        return Reader((Reading(raw, ()),), False, False)
    text, rules = _strip_markers(raw.strip())
    text, rules = _plain_letters(text, rules)
    options = _alternatives(text)
    if len(options) > _MAX_ALTERNATIVES:  # a list pasted into one name: no reading of parts
        options = [(text, None)]
    readings: dict[str, Reading] = {}
    for option, rule in options:
        for reading in _readings(option, (*rules, rule) if rule else rules):
            known = readings.get(reading.text)
            if reading.text and (known is None or (known.lossy and not reading.lossy)):
                readings[reading.text] = reading
    texts = [r.text for r in readings.values() if not r.lossy]
    hedge = any(is_hedge(a, b) for i, a in enumerate(texts) for b in texts[i + 1 :])
    return Reader(tuple(readings.values()), hedge, len(options) > 1)


@lru_cache(maxsize=200_000)
def forms(text: str) -> frozenset[str]:
    """Singular readings of a normalised text, every word inflected (``venae cavae``)."""
    if " " not in text:
        return _singulars(text) if text else frozenset()
    words = text.split()
    choices = [_singulars(word) for word in words]
    count = 1
    for choice in choices:
        count *= len(choice)
    if count > _MAX_FORMS:  # keep the head's readings only
        stem = " ".join(words[:-1])
        return frozenset(f"{stem} {form}".strip() for form in choices[-1])
    return frozenset(" ".join(combo) for combo in product(*choices))


def _is_plain(raw: str) -> bool:
    """Lower-case words no rule touches: most names, read without the full pipeline."""
    if not _PLAIN.fullmatch(raw) or " of " in raw or " or " in raw:
        return False
    *stem, last = raw.split(" ")
    return (
        raw[:2] != "a "
        and not raw.startswith(("the ", "an "))
        and last not in wording.HEADS
        and last not in wording.LATIN_POSITIONS
        and _us_spelling(last) == last
        and all(not w.endswith("s") and _us_spelling(w) == w and _adjective(w) == w for w in stem)
    )


@lru_cache(maxsize=100_000)
def _singulars(word: str) -> frozenset[str]:
    extra = wording.IRREGULAR_PLURALS.get(word)
    found = singular_forms(word)
    return found | {extra} if extra else found


def _strip_markers(text: str) -> tuple[str, tuple[str, ...]]:
    rules: list[str] = []
    for _ in range(2):  # "1. (B) aorta"
        found = _PREFIX.match(text)
        if not found or found.end() >= len(text):
            break
        rules.append(f"prefix {found.group(0).strip()} dropped")
        text = text[found.end() :]
    found = _SUFFIX.search(text) if text.endswith((")", "]")) else None
    if found and found.start() > 0:
        rules.append(f"marker {found.group(0).strip()} dropped")
        text = text[: found.start()]
    return text, tuple(rules)


def _plain_letters(text: str, rules: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """Diacritics off, and ``A-V`` / ``A.V.`` / ``m-RNA`` written as one abbreviation."""
    if not text.isascii():
        plain = "".join(
            c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
        )
        if plain != text:
            text, rules = plain, (*rules, "diacritics")
    if not _JOINERS.search(text):
        return text, rules
    joined = _DOTTED.sub(lambda m: m.group(1).replace(".", ""), text)
    joined = _LETTERS.sub(lambda m: _HYPHENS.sub("", m.group(0)), joined)
    joined = _LETTER_ABBR.sub(r"\1", joined)
    if joined != text:
        text, rules = joined, (*rules, "hyphenated abbreviation")
    return text, rules


def _alternatives(text: str) -> list[tuple[str, str | None]]:
    """The names one answer offers: itself, or its parenthetical and slash alternatives."""
    found = _PAREN.match(text) if "(" in text or "[" in text else None
    if found and found.group("inside").strip():
        main = f"{found.group('before').strip()} {found.group('after').strip()}".strip()
        inside = found.group("inside").strip()
        if main:
            return [(main, "parenthetical note dropped"), (inside, "parenthetical alternative")]
    if " or " in text.lower():
        text = _OR.sub(" / ", text)
    if "/" not in text:
        return [(text, None)]
    options: list[tuple[str, str | None]] = [
        (part.strip(), "slash alternative") for part in text.split("/") if part.strip()
    ]
    if _TIGHT_SLASH.search(text):  # "left/right atrium": the slash joins two words
        words = text.split()
        for i, word in enumerate(words):
            if "/" in word:
                for part in filter(None, word.split("/")):
                    option = " ".join([*words[:i], part, *words[i + 1 :]])
                    options.append((option, "slash alternative"))
    return options


def _readings(option: str, rules: tuple[str, ...]) -> list[Reading]:
    text = surface_form(option)
    head, sep, tail = text.partition(" of ")
    if not (sep and head and tail and " of " not in tail):
        return [Reading(t, (*rules, *r), lossy) for t, r, lossy in _wordings(text.split())]
    tail = drop_article(tail)
    out = []
    for place, place_rules, _ in _wordings(tail.split()):  # "adrenal gland" = "adrenal" here
        for part, part_rules, lossy in _wordings([*place.split(), *head.split()], of_form=True):
            out.append(Reading(part, (*rules, *place_rules, *part_rules), lossy))
    if tail in wording.CONTEXT or any(f in wording.CONTEXT for f in forms(tail)):
        context = f"context 'of the {tail}' dropped"
        for part, part_rules, _ in _wordings(head.split()):
            out.append(Reading(part, (*rules, context, *part_rules), True))
    return out


def _wordings(words: list[str], of_form: bool = False) -> list[tuple[str, tuple[str, ...], bool]]:
    """``(text, rules, lossy)`` for some words: their normalised text, its possessive-free
    variant, and (lossy) the text without a redundant head noun."""
    rules: list[str] = []
    spelled = [_us_spelling(w) for w in words]
    if spelled != words:
        rules.append("british spelling")
    out = _worded(spelled, rules, of_form, False)
    if len(spelled) > 1 and spelled[-1] in wording.HEADS and spelled[-2] not in wording.REGIONS:
        # "deltoid muscle" meets "deltoid"; lossy, and never against another head
        # ("cranial nerve" is not "cranial bone"), see :func:`heads_differ`
        headless = [*rules, f"redundant head '{spelled[-1]}'"]
        out += _worded(spelled[:-1], headless, of_form, True)
    return out


def _worded(
    words: list[str], rules: list[str], of_form: bool, lossy: bool
) -> list[tuple[str, tuple[str, ...], bool]]:
    adjective = [_adjective(w) for w in words[:-1]] + words[-1:]
    if adjective != words:
        rules = [*rules, "X of Y = adjective form" if of_form else "noun = adjective form"]
    words = adjective
    if len(words) > 1 and words[-1] in wording.LATIN_POSITIONS:
        rules = [*rules, "Latin word order"]
        words = [words[-1], *words[:-1]]
    out = [(" ".join(words), tuple(rules), lossy)]
    possessive = [w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words[:-1]]
    if possessive != words[:-1]:
        variant = (*rules, "possessive without apostrophe")
        out.append((" ".join([*possessive, words[-1]]), variant, lossy))
    return out


def heads_differ(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Did two readings each drop a different head noun (``cranial nerve``/``cranial bone``)?"""
    heads_a = {rule for rule in a if rule.startswith("redundant head")}
    heads_b = {rule for rule in b if rule.startswith("redundant head")}
    return bool(heads_a) and bool(heads_b) and heads_a != heads_b


_us_spelling = lru_cache(maxsize=100_000)(wording.us_spelling)


@lru_cache(maxsize=100_000)
def _adjective(word: str) -> str:
    if word in wording.ADJECTIVES:
        return wording.ADJECTIVES[word]
    for form in singular_forms(word):
        if form in wording.ADJECTIVES:
            return wording.ADJECTIVES[form]
    return word
