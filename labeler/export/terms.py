"""The lexicon terms an items.jsonl row lists: synonyms, distinct names, the rows that bear.

The global lexicon is indexed once per export (:class:`LexiconTerms`). An item with rows
of its own (its additions, its key's alternatives) is read through a layer of just those
rows over that index (:meth:`LexiconTerms.item`): which global groups they join, which
names they add, which groups they set apart. Nothing global is re-indexed or copied per
item, and a name no item row reaches is answered from the global index's memo — what
items.jsonl cost at 100k answers when every such item built a lexicon and its terms
(issue #17). The answers are exactly those of the whole layered lexicon
(``tests/export/test_item_terms_once.py``, ``tests/export/test_item_terms_layer.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import TypeVar

from labeler.lexicon import Lexicon, LexiconRow
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

#: A group of an item's layered lexicon, named by one of its parts: a global group id, or a
#: singular reading no global row has (an item row's own new name).
Node = int | str
#: A lexicon row as items.jsonl lists it: ``(canonical, synonym, relation)``.
Row = tuple[str, str, str]


class LexiconTerms:
    """A lexicon's surface names and rows grouped by synonym group, for listing a name's
    synonyms, distinct names and the rows that bear on it.

    A name's groups are kept in a memo read through ``map``: an item's few hundred answered
    names cost C-level lookups, not a Python call each. Rows are numbered once in their
    published order, and a group holds its rows' numbers: an item's rows are sorted as
    ints and listed as the lists made once here, where sorting and copying a hundred
    string tuples per item cost a third of items.jsonl.
    """

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.index = lexicon.index
        #: name -> its group ids (empty: no row has it)
        self.groups: _Memo[frozenset[int]] = _Memo(
            lambda name: self.index.groups(name_forms(normalize(name)))
        )
        #: name -> per singular reading, its group id, or the reading itself if no row has it
        #: (a name an item row may add)
        self.nodes: _Memo[tuple[Node, ...]] = _Memo(
            lambda name: tuple(
                next(iter(self.index.groups(frozenset((form,)))), form)
                for form in sorted(name_forms(normalize(name)))
            )
        )
        self._synonyms: _Memo[list[str]] = _Memo(
            lambda name: chosen(self.surfaces(self.groups[name]), name)
        )
        self._distinct: _Memo[list[str]] = _Memo(
            lambda name: chosen(self.surfaces(self.vetoed_all(self.groups[name])), name)
        )
        self.by_group: dict[int, set[str]] = defaultdict(set)
        #: every row once, in published order; a group's rows are positions in it
        self.rows: list[Row] = sorted({_row(row) for row in lexicon.rows()})
        self._listed = list(map(list, self.rows))
        number = {row: n for n, row in enumerate(self.rows)}
        self.rows_by_group: dict[int, set[int]] = defaultdict(set)
        for row in self.rows:
            for surface in row[:2]:
                for gid in self.groups[surface]:
                    self.by_group[gid].add(surface)
                    self.rows_by_group[gid].add(number[row])
        #: group -> the groups a ``distinct`` row sets against it (looked up per name)
        self.vetoed: dict[int, set[int]] = defaultdict(set)
        for a, b in self.index.distinct:
            self.vetoed[a].add(b)

    def item(self, rows: Sequence[tuple[str, str, str]]) -> ItemTerms:
        """The terms of an item whose own rows are ``rows``, layered over these."""
        return ItemTerms(self, rows)

    def relevant_rows(self, names: Collection[str]) -> list[list[str]]:
        """Rows of the groups ``names`` fall in and of the groups vetoed against those."""
        touched = self.touched(names)
        groups = touched | self.vetoed_all(touched)
        return self.listed(set().union(*map(self.rows_by_group.__getitem__, groups)))

    def listed(self, numbers: Iterable[int]) -> list[list[str]]:
        """The rows at ``numbers`` as items.jsonl lists them, in order: shared lists, never
        to be mutated (a row is the same list on every item that lists it)."""
        return list(map(self._listed.__getitem__, sorted(numbers)))

    def synonyms(self, name: str) -> list[str]:
        """Other names in ``name``'s synonym group(s). Memoised: never mutate the list."""
        return self._synonyms[name]

    def distinct(self, name: str) -> list[str]:
        """Names a ``distinct`` row separates from ``name``. Memoised: never mutate the list."""
        return self._distinct[name]

    def touched(self, names: Iterable[str]) -> set[int]:
        """The groups any of ``names`` falls in."""
        return set().union(*map(self.groups.__getitem__, names))

    def vetoed_all(self, groups: Iterable[int]) -> set[int]:
        """The groups a ``distinct`` row sets against any of ``groups``."""
        return set().union(*map(self.vetoed.__getitem__, groups))

    def surfaces(self, groups: Iterable[int]) -> set[str]:
        return set().union(*map(self.by_group.__getitem__, groups))


class ItemTerms:
    """One item's terms: the global groups as the item's own rows layer over them.

    The rows are applied as :class:`~labeler.lexicon.Lexicon` layers them (the rows the
    global lexicon lacks, first spelling of each, in order), on a small union-find over the
    groups and new readings they touch: the item's groups are unions of global groups and
    new readings, exactly the partition a re-index of every row would give. A name none of
    whose groups (or, for distinct names, the groups set against them) the rows touch is
    answered by the global terms.
    """

    def __init__(self, terms: LexiconTerms, rows: Sequence[tuple[str, str, str]]) -> None:
        self.terms = terms
        own = terms.lexicon.additions(rows)
        self._parent: dict[Node, Node] = {}
        pairs: list[tuple[Node, Node]] = []
        for row in own:
            canonical, synonym = terms.nodes[row.canonical], terms.nodes[row.synonym]
            if row.relation == "same":
                self._union(canonical + synonym)
            else:  # each side is one name, the two kept apart
                self._union(canonical)
                self._union(synonym)
                pairs.append((canonical[0], synonym[0]))
        find = self._find
        #: the readings only the item's rows have
        self._new = {node for node in self._parent if isinstance(node, str)}
        #: item group -> its parts, for every group the rows touch
        self._members: dict[Node, list[Node]] = defaultdict(list)
        for node in self._parent:
            self._members[find(node)].append(node)
        self._surfaces: dict[Node, set[str]] = defaultdict(set)
        self._rows: dict[Node, set[Row]] = defaultdict(set)
        for row in own:
            for surface in (row.canonical, row.synonym):
                for group in self.groups(surface):
                    self._surfaces[group].add(surface)
                    self._rows[group].add(_row(row))
        self._vetoed: dict[Node, set[Node]] = defaultdict(set)
        for a, b in pairs:
            self._vetoed[find(a)].add(find(b))
            self._vetoed[find(b)].add(find(a))
        if any(group in self.vetoed(group) for group in self._members):
            # a distinct row across a group the item's rows join: the layered lexicon
            # refuses them, and says which rows
            terms.lexicon.with_rows(rows)

    def _find(self, node: Node) -> Node:
        parent = self._parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def _union(self, nodes: Sequence[Node]) -> None:
        parent = self._parent
        for node in nodes:
            parent.setdefault(node, node)
        keep = self._find(nodes[0])
        for node in nodes[1:]:
            root = self._find(node)
            if root != keep:
                parent[root] = keep

    def _lift(self, groups: Iterable[Node]) -> set[Node]:
        """Global groups (or new readings) as the item's groups they are part of."""
        parent = self._parent
        return {self._find(g) if g in parent else g for g in groups}

    def _all_groups(self, names: Collection[str]) -> set[Node]:
        """The item's groups any of ``names`` falls in: global groups looked up in C, the
        few new readings apart."""
        terms = self.terms
        found = self._lift(terms.touched(names))
        if self._new:
            new = set().union(*map(terms.nodes.__getitem__, names)) & self._new
            found |= self._lift(new)
        return found

    def groups(self, name: str) -> set[Node]:
        """The item's groups ``name`` falls in."""
        return self._all_groups((name,))

    def vetoed(self, group: Node) -> set[Node]:
        """The item's groups a ``distinct`` row (global or the item's) sets against ``group``."""
        vetoed = self.terms.vetoed
        out = set(self._vetoed.get(group, ()))
        for part in self._members.get(group, (group,)):
            if isinstance(part, int):
                out |= self._lift(vetoed[part])
        return out

    def _parts(self, groups: Iterable[Node]) -> tuple[list[int], list[Node]]:
        """The global groups the item's ``groups`` are made of, and those of them the item's
        rows touch (which have surfaces and rows of their own)."""
        parts: list[int] = []
        own: list[Node] = []
        for group in groups:
            members = self._members.get(group)
            if members is not None:
                own.append(group)
                parts += [m for m in members if isinstance(m, int)]
            elif isinstance(group, int):  # untouched: a global group as it is
                parts.append(group)
        return parts, own

    def surfaces(self, groups: Iterable[Node]) -> set[str]:
        parts, own = self._parts(groups)
        return self.terms.surfaces(parts).union(*map(self._surfaces.__getitem__, own))

    def synonyms(self, name: str) -> list[str]:
        """Other names in ``name``'s synonym group(s). Never mutate the list."""
        if self._parent.keys().isdisjoint(self.terms.nodes[name]):
            return self.terms.synonyms(name)
        return chosen(self.surfaces(self.groups(name)), name)

    def distinct(self, name: str) -> list[str]:
        """Names a ``distinct`` row separates from ``name``. Never mutate the list."""
        vetoed = set().union(*map(self.vetoed, self.groups(name)))
        parent = self._parent.keys()
        if parent.isdisjoint(self.terms.nodes[name]) and parent.isdisjoint(vetoed):
            return self.terms.distinct(name)
        return chosen(self.surfaces(vetoed), name)

    def relevant_rows(self, names: Collection[str]) -> list[list[str]]:
        """Rows of the groups ``names`` fall in and of the groups vetoed against those."""
        touched = self._all_groups(names)
        parts, own = self._parts(touched.union(*map(self.vetoed, touched)))
        terms = self.terms
        found = set().union(*map(terms.rows_by_group.__getitem__, parts))
        mine = set().union(*map(self._rows.__getitem__, own))
        if not mine:
            return terms.listed(found)
        return listed(mine.union(map(terms.rows.__getitem__, found)))


V = TypeVar("V")


class _Memo(dict[str, V]):
    """A dict that computes a missing name's value once: read through ``map(memo.__getitem__,
    names)``, hits never leave C."""

    def __init__(self, compute: Callable[[str], V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, name: str) -> V:
        value = self[name] = self._compute(name)
        return value


def _row(row: LexiconRow) -> Row:
    return (row.canonical, row.synonym, row.relation)


def chosen(surfaces: set[str], name: str) -> list[str]:
    """``surfaces`` one per normal form (the first in sorted order), without ``name``'s own
    form; sorted by normal form."""
    own = normalize(name)
    picked: dict[str, str] = {}
    for surface in sorted(surfaces):
        form = normalize(surface)
        if form != own:
            picked.setdefault(form, surface)
    return sorted(picked.values(), key=lambda s: (normalize(s), s))


def listed(rows: Iterable[Row]) -> list[list[str]]:
    """Rows as ``[canonical, synonym, relation]`` lists, sorted."""
    return list(map(list, sorted(rows)))
