"""The ontology rule, checked on any lexicon: one surface string belongs to one group.

Synonym groups are transitive, so one careless row can merge two parts for every answer
(an ontology synonym shared by two terms made *cornea = lens* in a wholesale import). The
lint finds the rows that do it, without refusing them: a curator may mean a chain. It
reports three kinds of issue:

* ``two_groups``: a surface written as a synonym under two canonical names that no row
  equates directly (``A = S`` and ``B = S``: ``S`` merges ``A`` and ``B``);
* ``contradiction``: a ``distinct`` row whose two names ``same`` rows join (a
  :class:`~labeler.lexicon.Lexicon` refuses to load such rows, so the lint takes plain rows
  too and says which rows to drop);
* ``self_synonym``: a row whose two names already read the same (``sepal = sepals``,
  ``Z line = Z-line``): it adds nothing and hides real edits in the list.

Names are compared the way the scorer compares them (normalised, singular readings).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from labeler.lexicon import Lexicon, LexiconRow
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

IssueKind = Literal["two_groups", "contradiction", "self_synonym"]


@dataclass(frozen=True)
class LintIssue:
    """One problem in a lexicon, with the rows that cause it and a sentence for the curator."""

    kind: IssueKind
    surface: str
    rows: tuple[LexiconRow, ...]
    message: str


def lint_lexicon(lexicon: Lexicon | Iterable[LexiconRow]) -> list[LintIssue]:
    """Every issue in ``lexicon`` (see the module docstring), in row order within each kind."""
    rows = lexicon.rows() if isinstance(lexicon, Lexicon) else list(lexicon)
    same = [r for r in rows if r.relation == "same"]
    return [*_self_synonyms(rows), *_two_groups(same), *_contradictions(rows, same)]


def _forms(name: str) -> frozenset[str]:
    return name_forms(normalize(name))


def _key(name: str) -> str:
    return min(_forms(name))


def _self_synonyms(rows: list[LexiconRow]) -> list[LintIssue]:
    return [
        LintIssue(
            "self_synonym",
            r.synonym,
            (r,),
            f"{r.canonical!r} and {r.synonym!r} are one name to the scorer; the row adds nothing",
        )
        for r in rows
        if not _forms(r.canonical).isdisjoint(_forms(r.synonym))
    ]


class _Forest:
    """A small union-find over name keys."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


def _two_groups(same: list[LexiconRow]) -> list[LintIssue]:
    heads = {_key(r.canonical) for r in same}
    # Canonical names equated by a row of their own are one intended group.
    direct = _Forest()
    for r in same:
        if _key(r.synonym) in heads:
            direct.union(_key(r.canonical), _key(r.synonym))
    under: dict[str, list[LexiconRow]] = defaultdict(list)
    for r in same:
        if _key(r.synonym) not in heads and _key(r.synonym) != _key(r.canonical):
            under[_key(r.synonym)].append(r)
    issues = []
    for surface_rows in under.values():
        groups = {direct.find(_key(r.canonical)) for r in surface_rows}
        if len(groups) > 1:
            names = sorted({r.canonical for r in surface_rows})
            surface = surface_rows[0].synonym
            issues.append(
                LintIssue(
                    "two_groups",
                    surface,
                    tuple(surface_rows),
                    f"{surface!r} is a synonym of {' and '.join(map(repr, names))}, which no row "
                    "equates: it makes them one group; keep it under one of them",
                )
            )
    return issues


def _contradictions(rows: list[LexiconRow], same: list[LexiconRow]) -> list[LintIssue]:
    forest = _Forest()
    for r in rows:  # as the scorer does: every singular reading of a name is one node
        for name in (r.canonical, r.synonym):
            first, *others = sorted(_forms(name))
            for other in others:
                forest.union(other, first)
    for r in same:
        forest.union(_key(r.canonical), _key(r.synonym))

    def joined(r: LexiconRow) -> bool:
        return forest.find(_key(r.canonical)) == forest.find(_key(r.synonym))

    return [
        LintIssue(
            "contradiction",
            r.synonym,
            (r,),
            f"{r.canonical!r} and {r.synonym!r} are marked distinct, but 'same' rows join them; "
            "remove the distinct row or the 'same' row that joins them",
        )
        for r in rows
        if r.relation == "distinct" and joined(r)
    ]
