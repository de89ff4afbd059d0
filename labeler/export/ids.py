"""Public item IDs: ``PREFIX-N``, opaque, stable across exports.

Internal IDs (and the order items were made in) follow the source book and page,
which must not be guessable from a published dataset. New items are therefore
numbered in the order of ``sha256(salt + internal id)``, with the salt kept
private in the project's ``meta`` table, so consecutive numbers do not cluster
by source. Once given, a number is stored in ``public_ids`` and never changes;
later items get the numbers after the current highest. The table itself is
:class:`labeler.store.public_ids.PublicIdTable` (``project.public_ids``); this
module holds the numbering policy only.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from labeler.errors import LabelerError
from labeler.store import Project
from labeler.store.public_ids import format_public_id

__all__ = [
    "assign_public_ids",
    "format_public_id",
    "internal_ids_by_public",
    "parse_public_id",
    "preview_public_ids",
    "set_public_number",
    "stored_public_ids",
]


def parse_public_id(prefix: str, public_id: str) -> int:
    """The number in ``PREFIX-N``; a clear error if the ID has another shape or prefix."""
    match = re.fullmatch(rf"{re.escape(prefix)}-([1-9][0-9]*)", public_id)
    if match is None:
        raise LabelerError(f"{public_id!r} is not a public item ID of the form {prefix}-N")
    if len(match.group(1)) > 18:  # SQLite integers stop at 9.2e18
        raise LabelerError(f"{public_id[:40]!r}: the number is too large for a public item ID")
    return int(match.group(1))


def stored_public_ids(project: Project) -> dict[str, str]:
    """Internal id -> public id for every item that already has a number (writes nothing)."""
    return project.public_ids.labels(project.id_prefix)


def preview_public_ids(project: Project, item_ids: Iterable[str]) -> dict[str, str]:
    """Internal id -> the public id an export would give ``item_ids`` now; writes nothing.

    New numbers are exactly those :func:`assign_public_ids` would store (same
    salted order, after the current highest), so a validation-only export
    checks the files that would really be written.
    """
    wanted = list(dict.fromkeys(item_ids))
    known = project.public_ids.numbers() | _new_numbers(project, wanted)
    return {i: format_public_id(project.id_prefix, known[i]) for i in wanted}


def assign_public_ids(project: Project, item_ids: Iterable[str]) -> dict[str, str]:
    """Internal id -> public id for ``item_ids``, numbering those that have none yet.

    Runs inside the caller's transaction when there is one, so an export that
    fails later rolls the new numbers back with it.
    """
    wanted = list(dict.fromkeys(item_ids))
    numbers = _new_numbers(project, wanted)
    project.public_ids.add(numbers)
    return preview_public_ids(project, wanted)


def _new_numbers(project: Project, wanted: list[str]) -> dict[str, int]:
    """The numbers the un-numbered items of ``wanted`` get next (salted order)."""
    known = project.public_ids.numbers()
    salt = project.get_meta("id_salt")
    if not salt:
        raise LabelerError("this project has no ID salt in its settings; it cannot number items")
    new = sorted((i for i in wanted if i not in known), key=lambda i: _salted(salt, i))
    start = max(known.values(), default=0) + 1
    return {item_id: start + n for n, item_id in enumerate(new)}


def set_public_number(project: Project, item_id: str, number: int) -> None:
    """Give an item a known number (importing a published item keeps its public ID)."""
    taken = project.public_ids.owner(number)
    if taken is not None and taken != item_id:
        raise LabelerError(
            f"{format_public_id(project.id_prefix, number)} already belongs to item {taken}"
        )
    project.public_ids.set(item_id, number)


def internal_ids_by_public(project: Project) -> dict[str, str]:
    """Public id -> internal id (for importing published results)."""
    return {public: internal for internal, public in stored_public_ids(project).items()}


def _salted(salt: str, item_id: str) -> str:
    return hashlib.sha256(f"{salt}:{item_id}".encode()).hexdigest()
