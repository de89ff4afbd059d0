"""What a cell's score depends on, as short digests: the key of a per-cell score cache.

A cell's name-set F1 and marker accuracy are a function of its names, its item's key,
the rules and the lexicon — and of the lexicon only through which of the cell's names
share a synonym group and which groups a ``distinct`` row separates (the scorer looks a
name up by its group ids, :func:`labeler.scoring.match.name_groups`, and nothing else).
So the lexicon part of a cell's fingerprint is the digest of every global *component*
(the union-find group, with its ``same`` rows and the ``distinct`` rows touching it)
that one of the cell's names reaches, plus the item's own rows and the components their
names reach (an item row can join two global groups). An edit inside a component no
name of the cell reaches leaves the digest unchanged; any edit that could change the
score changes it. ``docs/decisions/0019-score-cache.md`` gives the argument.

Group ids are ranks and shift with unrelated edits, so components are named by their
rows' content, never by id. Digests are BLAKE2b (stable across processes, unlike
``hash``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import weakref
from collections.abc import Iterable, Sequence

from labeler.lexicon import Lexicon, LexiconRow
from labeler.scoring.match import name_groups
from labeler.scoring.rules import DEFAULT_RULES, Rules
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

_NO_DIGESTS: frozenset[str] = frozenset()


def digest(parts: Iterable[str]) -> str:
    """A short stable digest of strings (order matters; sort first where it must not)."""
    h = hashlib.blake2b(digest_size=12)
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def key_fingerprint(entries: Sequence[tuple[str, str | None, Sequence[str]]]) -> str:
    """Digest of an answer key as scoring reads it: ``(name, marker, alternatives)`` in order."""
    return digest([json.dumps([[n, m, list(a)] for n, m, a in entries], ensure_ascii=False)])


class LexiconPrints:
    """Component digests of one global lexicon, and the lexicon part of cell fingerprints.

    Built once per global lexicon (:func:`prints`); per-name digests are memoised, so a
    cell costs a few dictionary lookups and one hash.
    """

    def __init__(self, lexicon: Lexicon, rules: Rules = DEFAULT_RULES) -> None:
        self.lexicon = lexicon
        self.rules = rules
        #: the whole global lexicon: unchanged, every cell's lexicon part is unchanged too
        self.state = digest(sorted(_row_text(r) for r in lexicon.rows()))
        self._names: dict[str, frozenset[str]] = {}

    @functools.cached_property
    def _group_digest(self) -> dict[int, str]:
        """Each global group's component digest; built on the first per-name check, since
        a reader whose cells all carry the current state (:meth:`item_state`) needs none."""
        group_rows: dict[int, list[LexiconRow]] = {}
        for row in self.lexicon.rows():
            for group in self._row_groups(row):
                group_rows.setdefault(group, []).append(row)
        return {g: digest(sorted(_row_text(r) for r in rows)) for g, rows in group_rows.items()}

    def _row_groups(self, row: LexiconRow) -> set[int]:
        index = self.lexicon.index
        found = set(index.groups(name_forms(normalize(row.canonical))))
        if row.relation == "distinct":  # it separates two groups: both depend on it
            found |= index.groups(name_forms(normalize(row.synonym)))
        return found

    def _digests(self, groups: Iterable[int]) -> frozenset[str]:
        return frozenset(self._group_digest[g] for g in groups)

    def name(self, raw: str) -> frozenset[str]:
        """Digests of the components the scorer reaches from one surface."""
        found = self._names.get(raw)
        if found is None:
            groups = name_groups(raw, self.lexicon, rules=self.rules)
            found = self._names[raw] = self._digests(groups) if groups else _NO_DIGESTS
        return found

    def item(self, rows: Iterable[tuple[str, str, str]], key_names: Iterable[str]) -> ItemPrint:
        """The part every cell of one item shares: its own rows and its key names' components."""
        own = _own_rows(rows)
        reached: set[str] = set()
        index = self.lexicon.index
        for row in own:
            for name in (row.canonical, row.synonym):
                reached |= self._digests(index.groups(name_forms(normalize(name))))
        for name in key_names:
            reached |= self.name(name)
        rows_digest = _rows_digest(own)
        return ItemPrint(rows_digest, frozenset(reached), digest([self.state, rows_digest]))

    def item_state(self, rows: Iterable[tuple[str, str, str]]) -> str:
        """:attr:`ItemPrint.state` of an item with its own ``rows``, without its components.

        What a reader that trusts rows by state alone needs (the views' summaries): the
        components are the cost of :meth:`item` (every key name looked up in the lexicon),
        and only a per-name check reads them.
        """
        return digest([self.state, _rows_digest(_own_rows(rows))])

    def cell(self, item: ItemPrint, names: Iterable[str]) -> str:
        """The lexicon fingerprint of a cell of ``item`` whose answer holds ``names``."""
        reached = set(item.reached)
        for raw in names:
            reached |= self.name(raw)
        return digest([item.rows, *sorted(reached)])


class ItemPrint:
    """An item's own lexicon rows (digest) and the global components its rows and key reach.

    ``state`` digests the whole lexicon the item is scored with (global rows and its own):
    a cached cell checked under the same state needs no per-name check.
    """

    __slots__ = ("reached", "rows", "state")

    def __init__(self, rows: str, reached: frozenset[str], state: str) -> None:
        self.rows = rows
        self.reached = reached
        self.state = state


def _own_rows(rows: Iterable[tuple[str, str, str]]) -> list[LexiconRow]:
    """An item's ``(canonical, synonym, relation)`` rows as lexicon rows (``same`` unless
    ``distinct``)."""
    return [LexiconRow(c, s, "distinct" if r == "distinct" else "same") for c, s, r in rows]


def _rows_digest(rows: Iterable[LexiconRow]) -> str:
    return digest(sorted(_row_text(r) for r in rows))


def _row_text(row: LexiconRow) -> str:
    return f"{row.relation}\x1f{normalize(row.canonical)}\x1f{normalize(row.synonym)}"


_PRINTS: weakref.WeakKeyDictionary[Lexicon, dict[str, LexiconPrints]]
_PRINTS = weakref.WeakKeyDictionary()


def prints(lexicon: Lexicon, rules: Rules = DEFAULT_RULES) -> LexiconPrints:
    """The (memoised) :class:`LexiconPrints` of a global lexicon object."""
    per_rules = _PRINTS.setdefault(lexicon, {})
    found = per_rules.get(rules)
    if found is None:
        found = per_rules[rules] = LexiconPrints(lexicon, rules)
    return found
