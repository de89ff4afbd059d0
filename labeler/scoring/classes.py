"""Equivalence classes: which names of one list count once.

Predictions equivalent to each other (any level but fuzzy) count once, and so do
key names; fuzzy is excluded because two near-identical predictions
(``nucleus``, ``nucleolus``) are often two different answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from labeler.scoring.profiles import _Name


def _classes(names: Sequence[_Name]) -> tuple[Sequence[int], list[str]]:
    """Equivalence class per name and each class's first surface.

    Classes are the connected components of "shares an equivalence token"
    (normalised form, singular reading or lexicon group), so the count does
    not depend on order even for chains like ``atrium ~ atria ~ atrion``.
    Classes are numbered by first appearance. The common case (no two names
    equivalent) costs one C-level set build over all their tokens.
    """
    flat = list(chain.from_iterable([name.equivalent for name in names]))
    if len(set(flat)) == len(flat):  # no token shared: every name is its own class
        return range(len(names)), [name.raw for name in names]
    owner: dict[str | int, int] = {}
    parent: list[int] | None = None
    for i, name in enumerate(names):
        if owner.keys().isdisjoint(name.equivalent):
            owner.update(dict.fromkeys(name.equivalent, i))
            continue
        parent = parent or list(range(len(names)))
        for token in name.equivalent:
            a, b = _root(parent, owner.setdefault(token, i)), _root(parent, i)
            parent[max(a, b)] = min(a, b)
    if parent is None:
        return range(len(names)), [n.raw for n in names]
    number: dict[int, int] = {}
    reps: list[str] = []
    class_of = []
    for i, name in enumerate(names):
        root = _root(parent, i)
        if root not in number:
            number[root] = len(reps)
            reps.append(name.raw)
        class_of.append(number[root])
    return class_of, reps


def _root(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i
