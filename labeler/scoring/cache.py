"""The scorer's memo tables: name profiles and prepared keys per lexicon index and rule set.

Per-name work (readings, singular forms, lexicon groups) is memoised per lexicon
index and rule set, and a key list is prepared once and reused by every model and
condition scored against it. A per-item lexicon takes from the empty lexicon's cache
the profile of every name whose singular readings it does not know (the only thing a
profile asks the index), so only names its terms reach are read again per item. The
caches belong to the scorer (keyed weakly by the lexicon's index); the lexicon knows
nothing of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from labeler.lexicon import Lexicon
from labeler.scoring.edges import _Side
from labeler.scoring.profiles import _PROFILES, _Name, _regrouped
from labeler.scoring.rules import Rules, check_rules

if TYPE_CHECKING:
    from labeler.lexicon import _Index


class _Cache:
    """The scorer's memo tables for one lexicon index under one rule set.

    ``plain`` is the cache of the empty lexicon under the same rules. A name none of
    whose singular readings the index knows has the very profile it has under no
    lexicon (the index is asked about those readings and nothing else), so it is
    taken from there: every per-item lexicon shares one profile of each such name
    instead of reading it again per item. Only names a lexicon's terms reach are
    profiled per lexicon.
    """

    def __init__(self, index: _Index, rules: Rules, plain: _Cache | None = None) -> None:
        self.index = index
        self.rules = rules
        self.profile = _PROFILES[rules]
        self.plain = plain
        #: per-surface profiles
        self.names: dict[str, _Name] = {}
        #: prepared answer keys
        self.prepared: dict[tuple[str, ...], _Side] = {}

    def name(self, raw: str) -> _Name:
        found = self.names.get(raw)
        if found is None:
            if len(self.names) > 500_000:
                self.names.clear()
            if self.plain is None:
                found = self.profile(raw, self.index)
            else:
                found = self.plain.name(raw)
                if self.index.knows_any(found.lookups):
                    groups = self.index.groups(found.lookups)
                    found = _regrouped(found, groups, self.rules)
            self.names[raw] = found
        return found


_CACHES: WeakKeyDictionary[_Index, dict[str, _Cache]] = WeakKeyDictionary()


def _cache(lexicon: Lexicon | None, rules: str) -> _Cache:
    index = lexicon.index if lexicon is not None else _empty_index()
    per_rules = _CACHES.get(index)
    if per_rules is None:
        per_rules = _CACHES[index] = {}
    cache = per_rules.get(rules)
    if cache is None:
        plain = None if lexicon is None or not len(lexicon) else _cache(None, rules)
        cache = per_rules[rules] = _Cache(index, check_rules(rules), plain)
    return cache


def _prepared_key(key: Sequence[str], cache: _Cache) -> _Side:
    prepared = cache.prepared
    token = tuple(key)
    side = prepared.get(token)
    if side is None:
        if len(prepared) > 50_000:
            prepared.clear()
        profiles = [cache.name(raw) for raw in token]
        side = prepared[token] = _Side(profiles, cache.index.distinct, cache.rules == "expert")
    return side


_EMPTY: list[_Index] = []


def _empty_index() -> _Index:
    if not _EMPTY:
        _EMPTY.append(Lexicon().index)
    return _EMPTY[0]
