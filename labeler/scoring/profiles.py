"""Name profiles: everything the matcher needs about one surface, read once per lexicon.

A profile holds a surface's lookup tokens at each level (exact, normalised, plural
and synonym; :data:`STRENGTH`), the tokens that make two names equivalent, the texts
the fuzzy level compares, and under the expert rules (:mod:`labeler.scoring.expert`)
the reading rules behind each token. The card's rules read a surface with
:func:`~labeler.text.normalize.normalize` and :func:`~labeler.text.plurals.name_forms`;
the expert rules read it the way a grader does. The lexicon's index is asked about a
profile's singular readings and nothing else (``_Name.lookups``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Literal, NamedTuple

from labeler.scoring import expert
from labeler.scoring.contrast import typo_bucket
from labeler.scoring.fuzzy import FUZZY_MIN_LEN, FUZZY_PREFIX
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

if TYPE_CHECKING:
    from labeler.lexicon import _Index

How = Literal["exact", "normalized", "plural", "synonym", "fuzzy"]
STRENGTH: dict[str, int] = {"exact": 5, "normalized": 4, "plural": 3, "synonym": 2, "fuzzy": 1}
_HOW_OF: dict[int, How] = {5: "exact", 4: "normalized", 3: "plural", 2: "synonym", 1: "fuzzy"}

# Token tags keep the levels apart in one lookup table (lexicon groups are ints).
_RAW, _NORM, _FORM = "\x01", "\x02", "\x03"
_NO_RULES: tuple[str, ...] = ()


class _Name(NamedTuple):
    """Everything the matcher needs about one surface, computed once per lexicon.

    ``strength`` maps each lookup token to its level's strength (5 exact …
    2 synonym) and ``why`` the expert rules behind a token; ``equivalent`` are
    the tokens that make two names "the same" (all levels but exact, which
    normalised subsumes, and fuzzy; no lossy reading); ``fuzzy`` the
    ``(bucket, text)`` pairs the fuzzy level compares, only with key texts of the same
    bucket (:func:`_expert_bucket`). ``hedge`` names two parts
    at once; ``alternatives`` offers several names for one part. ``lookups`` are
    every singular reading the profile asked the lexicon's index about: the
    lexicon's only say in a profile, so one the index knows none of is the
    profile under no lexicon at all (:meth:`_Cache.name` shares it).
    """

    raw: str
    norm: str
    groups: frozenset[int]
    strength: dict[str | int, int]
    equivalent: tuple[str | int, ...]
    fuzzy: tuple[tuple[Hashable, str], ...]
    why: dict[str | int, tuple[str, ...]]
    hedge: bool = False
    alternatives: bool = False
    lookups: frozenset[str] = frozenset()


def _card_profile(raw: str, index: _Index) -> _Name:
    norm = normalize(raw)
    forms = name_forms(norm)
    groups = index.groups(forms)
    equivalent: tuple[str | int, ...] = (
        _NORM + norm,
        *(_FORM + f for f in sorted(forms)),
        *sorted(groups),
    )
    strength: dict[str | int, int] = dict.fromkeys(groups, 2)
    strength.update(dict.fromkeys(equivalent[1 : 1 + len(forms)], 3))
    strength[equivalent[0]] = 4
    strength[_RAW + raw.strip()] = 5
    fuzzy = ((norm[:FUZZY_PREFIX], norm),) if len(norm) >= FUZZY_MIN_LEN else ()
    return _Name(raw.strip(), norm, groups, strength, equivalent, fuzzy, {}, lookups=forms)


def _expert_profile(raw: str, index: _Index) -> _Name:
    reader = expert.read(raw)
    readings = reader.readings
    if not readings:
        return _Name(raw.strip(), "", frozenset(), {_RAW + raw.strip(): 5}, (), (), {})
    if len(readings) == 1 and readings[0].text is raw:  # most names: no rule applies
        return _plain_profile(raw, raw, index)
    card_norm = normalize(raw)
    if len(readings) == 1 and not readings[0].rules and readings[0].text == card_norm:
        return _plain_profile(raw, card_norm, index)
    strength: dict[str | int, int] = {}
    why: dict[str | int, tuple[str, ...]] = {}
    equivalent: list[str | int] = []
    lookups = set(name_forms(card_norm))
    groups = set(index.groups(name_forms(card_norm)))
    for reading in readings:
        reading_forms = expert.forms(reading.text)
        tokens = [(_NORM + reading.text, 4), *((_FORM + f, 3) for f in sorted(reading_forms))]
        if not reading.lossy:
            groups |= index.groups(reading_forms)
            lookups |= reading_forms
        for token, level in tokens:
            if strength.get(token, 0) < level:
                strength[token] = level
                why[token] = reading.rules
            if not reading.lossy and token not in equivalent:
                equivalent.append(token)
    found_groups = frozenset(groups)
    for group in sorted(found_groups):
        strength.setdefault(group, 2)
        equivalent.append(group)
    strength[_RAW + raw.strip()] = 5
    why[_RAW + raw.strip()] = _NO_RULES
    fuzzy = tuple(
        (_expert_bucket(r.text), r.text)
        for r in readings
        if not r.lossy and len(r.text) >= FUZZY_MIN_LEN
    )
    return _Name(
        raw.strip(),
        readings[0].text,
        found_groups,
        strength,
        (_RAW + raw.strip(),) if reader.hedge else tuple(equivalent),  # a hedge: itself only
        fuzzy,
        why,
        reader.hedge,
        reader.alternatives,
        frozenset(lookups),
    )


def _plain_profile(raw: str, text: str, index: _Index) -> _Name:
    """An expert profile with one reading and no rule: the card's, with every word inflected."""
    forms = expert.forms(text)
    groups = index.groups(forms)
    form_tokens = [_FORM + f for f in forms]  # token order does not matter: classes are components
    equivalent: tuple[str | int, ...] = (_NORM + text, *form_tokens, *groups)
    strength: dict[str | int, int] = dict.fromkeys(groups, 2)
    strength.update(dict.fromkeys(equivalent[1 : 1 + len(forms)], 3))
    strength[equivalent[0]] = 4
    strength[_RAW + raw.strip()] = 5
    fuzzy = ((_expert_bucket(text), text),) if len(text) >= FUZZY_MIN_LEN else ()
    return _Name(raw.strip(), text, groups, strength, equivalent, fuzzy, {}, lookups=forms)


def _expert_bucket(text: str) -> Hashable:
    """The texts the expert fuzzy level compares ``text`` with: those sharing its first
    letters (the card's guard) and its :func:`~labeler.scoring.contrast.typo_bucket`, the
    only ones :func:`~labeler.scoring.contrast.typo_close` can accept. The card's bucket
    is the prefix alone."""
    return text[:FUZZY_PREFIX], typo_bucket(text)


_PROFILES = {"card": _card_profile, "expert": _expert_profile}


def _regrouped(plain: _Name, groups: frozenset[int], rules: str) -> _Name:
    """The profile a surface has under a lexicon, from its no-lexicon profile and its groups.

    A profile asks the lexicon's index one thing, the groups of its singular readings
    (``lookups``, so ``groups`` is ``index.groups(plain.lookups)``); everything else is
    the lexicon-free reading. A per-item lexicon re-profiles every surface its terms
    reach, about 100k at 100k answers, and reading a surface again costs twenty times
    adding the groups where the profile functions put them, token order included:
    first under the card's rules and a plain expert reading (sorted only in the card's
    ``equivalent``), after the reading tokens and before the exact one when expert
    rules fired (``why`` is filled only then), sorted.
    """
    if plain.why:  # _expert_profile's full path
        raw_token = _RAW + plain.raw
        strength = {t: s for t, s in plain.strength.items() if t != raw_token}
        ordered = tuple(sorted(groups))
        strength.update(dict.fromkeys(ordered, 2))
        strength[raw_token] = 5
        equivalent = plain.equivalent if plain.hedge else (*plain.equivalent, *ordered)
    else:  # _card_profile or _plain_profile
        strength = {**dict.fromkeys(groups, 2), **plain.strength}
        extra = sorted(groups) if rules == "card" else groups
        equivalent = (*plain.equivalent, *extra)
    return plain._replace(groups=groups, strength=strength, equivalent=equivalent)
