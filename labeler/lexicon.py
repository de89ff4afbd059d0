"""The synonym lexicon that curators grow while reviewing.

A lexicon is a list of rows ``(canonical, synonym, relation)``. ``same`` rows
join names into synonym groups (transitively, and across singular/plural, so
``mitral valve = bicuspid valve`` and ``bicuspid valves = left AV valve`` make
one group). ``distinct`` rows veto a match the plural or fuzzy rules would
otherwise make (``nucleus`` / ``nucleolus`` pass the fuzzy guards at 0.875).

Projects keep one global lexicon and per-item additions layered over it
(:meth:`Lexicon.with_rows`). Edits return their inverse so the GUI's undo stack
can replay them. The CSV codec is ``canonical,synonym,relation`` with an empty
relation meaning ``same``; saves are atomic.
"""

from __future__ import annotations

import csv
import io
import os
from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal

from labeler.atomic import write_text
from labeler.errors import ConfigError
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

Relation = Literal["same", "distinct"]
RELATIONS: tuple[str, ...] = ("same", "distinct")
HEADER = ("canonical", "synonym", "relation")


@dataclass(frozen=True)
class LexiconRow:
    """One lexicon entry; ``relation`` is ``same`` or ``distinct``."""

    canonical: str
    synonym: str
    relation: Relation = "same"


@dataclass(frozen=True)
class SynonymGroup:
    """Names the lexicon treats as one: joined by ``same`` rows, transitively and
    across singular/plural (``A = B`` and ``B = C`` are one group of three).

    ``canonical`` is the canonical name of the group's first row; ``members``
    every name its rows write (first spelling of each, in row order); ``rows``
    its ``same`` rows in insertion order.
    """

    canonical: str
    members: tuple[str, ...]
    rows: tuple[LexiconRow, ...]

    @property
    def row_count(self) -> int:
        return len(self.rows)


@dataclass(frozen=True)
class Edit:
    """An edit operation: ``add`` or ``remove`` one row. Applying returns the inverse."""

    action: Literal["add", "remove"]
    row: LexiconRow


def _row(canonical: str, synonym: str, relation: str | None, where: str) -> LexiconRow:
    found = _parsed(canonical or "", synonym or "", relation or "")
    if isinstance(found, str):
        raise ConfigError(f"{where}: {found}")
    return found


@lru_cache(maxsize=100_000)
def _parsed(canonical: str, synonym: str, relation: str) -> LexiconRow | str:
    """One row, checked, or what is wrong with it (without saying where).

    Memoised: rows repeat across the per-item lexicons of an export (221k rows at 100k
    answers, 2.8k distinct), and ``labeler score`` checks every item's rows again.
    """
    canonical, synonym = canonical.strip(), synonym.strip()
    relation = relation.strip().lower() or "same"
    if relation not in RELATIONS:
        return f"relation must be 'same' or 'distinct', not {relation!r}"
    if not normalize(canonical) or not normalize(synonym):
        return "both 'canonical' and 'synonym' need a name"
    return LexiconRow(canonical, synonym, relation)  # type: ignore[arg-type]


def _checked(rows: Iterable[tuple[str, str, str | None] | LexiconRow]) -> list[LexiconRow]:
    """Rows from ``(canonical, synonym, relation)`` tuples, each checked (errors name the row)."""
    checked = []
    for n, item in enumerate(rows, start=1):
        if isinstance(item, LexiconRow):
            item = (item.canonical, item.synonym, item.relation)
        canonical, synonym, *rest = item
        checked.append(_row(canonical, synonym, rest[0] if rest else None, f"row {n}"))
    return checked


class _Index:
    """Lookup tables derived from the rows; rebuilt whenever the rows change.

    Groups come from a union-find over every singular reading of every lexicon
    term (so lookups work for plural surfaces too), the rows applied in order;
    a group's id is the rank of its root among all roots. ``distinct`` holds
    vetoed pairs of group ids. ``groups(name_forms)`` is memoised, which is
    what keeps live rescoring of thousands of cells fast.

    The root a union picks depends only on the sequence of unions, so
    :meth:`layered` continues from a copy of the base's forest with an item's
    rows and arrives at exactly the groups, ids and errors a rebuild from all
    rows would give, while touching only the item's rows (plus C-level copies).
    """

    _parent: dict[str, str]

    def __init__(self, rows: Iterable[LexiconRow], base: _Index | None = None) -> None:
        parent: dict[str, str] = dict(base._parent) if base is not None else {}
        created: list[str] = []
        moved: list[str] = []

        known = self._find

        def find(x: str) -> str:
            if x in parent:
                return known(x)
            parent[x] = x
            created.append(x)
            return x

        def union_all(forms: Iterable[str]) -> None:
            keep = None  # the first form's root takes every other's: the unions a rebuild makes
            for form in forms:
                root = find(form)
                if keep is None:
                    keep = root
                elif root != keep:
                    parent[root] = keep
                    moved.append(root)

        self._parent = parent
        distinct_rows = list(base._distinct_rows) if base is not None else []
        for row in rows:
            canonical = name_forms(normalize(row.canonical))
            synonym = name_forms(normalize(row.synonym))
            if row.relation == "same":  # one union of both sides: the names' own are inside it
                union_all(canonical | synonym)
                continue
            union_all(canonical)  # a distinct row: each side's forms are one name
            union_all(synonym)
            distinct_rows.append((row, next(iter(canonical)), next(iter(synonym))))
        if base is None:
            self._roots = sorted(f for f, up in parent.items() if f == up)
        else:
            self._roots = list(base._roots)
            for root in moved:
                if base._parent.get(root) == root:
                    del self._roots[bisect_left(self._roots, root)]
            for form in created:
                if parent[form] == form:
                    insort(self._roots, form)
        self._distinct_rows: list[tuple[LexiconRow, str, str]] = distinct_rows
        distinct: set[tuple[int, int]] = set()
        for row, form_a, form_b in distinct_rows:
            a, b = self._group(form_a), self._group(form_b)
            if a == b:
                raise ConfigError(
                    f"lexicon says {row.canonical!r} and {row.synonym!r} are distinct, but 'same' "
                    "rows (or their singular/plural forms) join them; remove one of the "
                    "conflicting rows"
                )
            distinct.update(((a, b), (b, a)))
        self.distinct = frozenset(distinct)
        self._cache: dict[frozenset[str], frozenset[int]] = {}

    def layered(self, rows: Iterable[LexiconRow]) -> _Index:
        """The index of this index's rows followed by ``rows`` (``self`` is unchanged)."""
        return _Index(rows, base=self)

    def _find(self, form: str) -> str:
        """Root of a known form, compressing the path (roots never change by it)."""
        parent = self._parent
        while parent[form] != form:
            parent[form] = parent[parent[form]]
            form = parent[form]
        return form

    def _group(self, form: str) -> int:
        return bisect_left(self._roots, self._find(form))

    def knows_any(self, forms: Iterable[str]) -> bool:
        """True when some of these singular readings is a lexicon term's: exactly when
        :meth:`groups` can answer anything but empty for them (a scorer's cue to share
        the profile it made with no lexicon). Asked once per surface per item lexicon
        (~350k times at 100k answers), hence one C-level set test, not a generator."""
        return not self._parent.keys().isdisjoint(forms)

    def groups(self, forms: frozenset[str]) -> frozenset[int]:
        """Group ids of a name given its singular readings (empty if unknown)."""
        found = self._cache.get(forms)
        if found is None:
            found = frozenset(self._group(f) for f in forms if f in self._parent)
            self._cache[forms] = found
        return found


class Lexicon:
    """Synonym groups and distinct pairs; see the module docstring."""

    def __init__(self, rows: Iterable[LexiconRow] = (), *, index: _Index | None = None) -> None:
        """``index``, when given, is the rows' index already built (:meth:`_layer`)."""
        self._rows: list[LexiconRow] = []
        self._keys: set[tuple[str, str, str]] = set()
        for row in rows:
            self._insert(row)
        if index is not None:
            self.__dict__["index"] = index  # the cached_property's slot
        self.index  # noqa: B018 - validate now: a conflicting lexicon fails on load

    # -- construction and codec -------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[str, str, str | None] | LexiconRow]) -> Lexicon:
        """Build from ``(canonical, synonym, relation)`` tuples; relation ``None``/``""`` = same."""
        return cls(_checked(rows))

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str]) -> Lexicon:
        """Read a ``canonical,synonym,relation`` CSV; errors name the file and line."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise ConfigError(f"cannot read lexicon {path}: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"lexicon {path} is not UTF-8 text; save it as UTF-8 CSV") from exc
        reader = csv.DictReader(io.StringIO(text))
        fields = [f.strip().lower() for f in reader.fieldnames or ()]
        if fields[:2] != ["canonical", "synonym"]:
            raise ConfigError(
                f"lexicon {path} must start with the header 'canonical,synonym,relation'"
            )
        reader.fieldnames = fields
        rows = [
            _row(r["canonical"], r["synonym"], r.get("relation"), f"{path}, line {reader.line_num}")
            for r in reader
            if any((v or "").strip() for k, v in r.items() if k is not None)
        ]
        return cls(rows)

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash leaves the old file or the new one, never half."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows((r.canonical, r.synonym, r.relation) for r in self._rows)
        write_text(path, buffer.getvalue())

    def rows(self) -> list[LexiconRow]:
        """The rows in insertion order."""
        return list(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[LexiconRow]:
        return iter(self.rows())

    # -- layering, merge, search ------------------------------------------------

    def merge(self, other: Lexicon | Iterable[LexiconRow]) -> Lexicon:
        """A new lexicon with this one's rows followed by ``other``'s new rows."""
        return self._layer(self._new(other.rows() if isinstance(other, Lexicon) else other))

    def with_rows(self, item_rows: Iterable[tuple[str, str, str | None] | LexiconRow]) -> Lexicon:
        """The global lexicon with one item's additions layered on top (self is unchanged).

        An item that adds nothing new gets this lexicon itself, so its warm
        scoring caches are shared instead of rebuilt per item. Otherwise only the
        item's rows are indexed, on top of this lexicon's index (:meth:`_Index.layered`).
        """
        rows = _checked(item_rows)
        extra = self._new(rows)
        if not extra:
            return self
        try:
            return self._layer(extra)
        except ConfigError:
            Lexicon(rows)  # the item's rows conflicting alone: say so, not through the global
            raise

    def additions(
        self, item_rows: Iterable[tuple[str, str, str | None] | LexiconRow]
    ) -> list[LexiconRow]:
        """The rows :meth:`with_rows` layers on for ``item_rows``: each checked, those this
        lexicon lacks, the first spelling of each, in order (a reader that layers an item's
        rows itself, :class:`labeler.export.terms.ItemTerms`, takes exactly these)."""
        return list(self._new(_checked(item_rows)).values())

    def _new(self, rows: Iterable[LexiconRow]) -> dict[tuple[str, str, str], LexiconRow]:
        """The rows this lexicon lacks, by key: the first spelling of each, in order."""
        found: dict[tuple[str, str, str], LexiconRow] = {}
        for row in rows:
            key = self._key(row)
            if key not in self._keys:
                found.setdefault(key, row)
        return found

    def _layer(self, extra: dict[tuple[str, str, str], LexiconRow]) -> Lexicon:
        """This lexicon's rows then ``extra``'s (:meth:`_new`'s), indexed incrementally."""
        added = list(extra.values())
        layered = Lexicon(index=self.index.layered(added))
        layered._rows, layered._keys = [*self._rows, *added], self._keys | extra.keys()
        return layered

    def search(self, text: str) -> list[LexiconRow]:
        """Rows whose canonical or synonym contains ``text`` (normalised), in order."""
        needle = normalize(text)
        return [
            r
            for r in self._rows
            if needle in normalize(r.canonical) or needle in normalize(r.synonym)
        ]

    # -- groups -----------------------------------------------------------------

    def groups(self) -> list[SynonymGroup]:
        """The synonym groups, in order of their first row (the scorer's groups, as rows).

        Only ``same`` rows make a group; a name that appears only in a
        ``distinct`` row is in none.
        """
        found: dict[int, list[LexiconRow]] = {}
        for row in self._rows:
            if row.relation == "same":
                found.setdefault(self._group_of(row.canonical), []).append(row)
        return [_synonym_group(rows) for rows in found.values()]

    def distinct_pairs(self) -> list[tuple[str, str]]:
        """One ``(name, name)`` per pair of groups a ``distinct`` row separates, in row order.

        Rows that separate the same two groups (``nucleus``/``nucleolus`` and
        ``nuclei``/``nucleoli``) are one pair, named by the first such row.
        """
        pairs: dict[frozenset[int], tuple[str, str]] = {}
        for row in self._rows:
            if row.relation == "distinct":
                key = frozenset((self._group_of(row.canonical), self._group_of(row.synonym)))
                pairs.setdefault(key, (row.canonical, row.synonym))
        return list(pairs.values())

    def _group_of(self, name: str) -> int:
        """The group id of a name in a row (all its singular readings share one group)."""
        return min(self.index.groups(name_forms(normalize(name))))

    # -- undo-friendly edits ----------------------------------------------------

    def add(self, canonical: str, synonym: str, relation: str = "same") -> Edit:
        """Add a row; returns the inverse edit. Duplicates and conflicts are refused."""
        return self.apply(Edit("add", _row(canonical, synonym, relation, "new row")))

    def remove(self, row: LexiconRow) -> Edit:
        """Remove a row; returns the inverse edit."""
        return self.apply(Edit("remove", row))

    def apply(self, edit: Edit) -> Edit:
        """Apply an edit and return its inverse. A conflicting add is refused unchanged."""
        if edit.action == "add":
            if self._key(edit.row) in self._keys:
                raise ConfigError(
                    f"the lexicon already has {edit.row.canonical!r} = "
                    f"{edit.row.synonym!r} ({edit.row.relation})"
                )
            self._insert(edit.row)
            try:
                self._reindex()
            except ConfigError:
                self._delete(edit.row)
                self._reindex()
                raise
            return Edit("remove", edit.row)
        if self._key(edit.row) not in self._keys:
            raise ConfigError(
                f"the lexicon has no row {edit.row.canonical!r} = "
                f"{edit.row.synonym!r} ({edit.row.relation})"
            )
        self._delete(edit.row)
        self._reindex()
        return Edit("add", edit.row)

    # -- lookups used by the scorer ---------------------------------------------

    @cached_property
    def index(self) -> _Index:
        """Derived lookup tables (group ids, distinct pairs), cached until the next edit."""
        return _Index(self._rows)

    def same(self, a: str, b: str) -> bool:
        """True when the lexicon puts ``a`` and ``b`` in one synonym group."""
        ga = self.index.groups(name_forms(normalize(a)))
        return not ga.isdisjoint(self.index.groups(name_forms(normalize(b))))

    def distinct(self, a: str, b: str) -> bool:
        """True when a ``distinct`` row separates ``a`` and ``b``."""
        ga = self.index.groups(name_forms(normalize(a)))
        gb = self.index.groups(name_forms(normalize(b)))
        return any((x, y) in self.index.distinct for x in ga for y in gb)

    # -- internals --------------------------------------------------------------

    @staticmethod
    def _key(row: LexiconRow) -> tuple[str, str, str]:
        return (normalize(row.canonical), normalize(row.synonym), row.relation)

    def _insert(self, row: LexiconRow) -> None:
        if self._key(row) not in self._keys:
            self._keys.add(self._key(row))
            self._rows.append(row)

    def _delete(self, row: LexiconRow) -> None:
        key = self._key(row)
        self._keys.discard(key)
        self._rows = [r for r in self._rows if self._key(r) != key]

    def _reindex(self) -> None:
        self.__dict__.pop("index", None)
        self.index  # noqa: B018 - rebuild now so a conflict surfaces at the edit


def _synonym_group(rows: list[LexiconRow]) -> SynonymGroup:
    members: dict[str, str] = {}
    for row in rows:
        for name in (row.canonical, row.synonym):
            members.setdefault(normalize(name), name)
    return SynonymGroup(rows[0].canonical, tuple(members.values()), tuple(rows))


def load_starter() -> Lexicon:
    """The starter biology lexicon shipped in ``labeler/data/lexicon/biology.csv``."""
    from labeler.data import STARTER_LEXICON, data_file

    return Lexicon.from_csv(data_file(STARTER_LEXICON))
