"""Public item IDs: ``PREFIX-N``, opaque, stable across exports.

Internal IDs (and the order items were made in) follow the source book and page,
which must not be guessable from a published dataset. New items are therefore
numbered in the order of ``sha256(salt + internal id)``, with the salt kept
private in the project's ``meta`` table, so consecutive numbers do not cluster
by source. Once given, a number is stored in ``public_ids`` and never changes;
later items get the numbers after the current highest.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from labeler.errors import LabelerError
from labeler.store import Project


def format_public_id(prefix: str, number: int) -> str:
    """``PREFIX-N``."""
    return f"{prefix}-{number}"


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
    prefix = project.id_prefix
    rows = project.db.execute("SELECT item_id, number FROM public_ids")
    return {r["item_id"]: format_public_id(prefix, r["number"]) for r in rows}


def preview_public_ids(project: Project, item_ids: Iterable[str]) -> dict[str, str]:
    """Internal id -> the public id an export would give ``item_ids`` now; writes nothing.

    New numbers are exactly those :func:`assign_public_ids` would store (same
    salted order, after the current highest), so a validation-only export
    checks the files that would really be written.
    """
    wanted = list(dict.fromkeys(item_ids))
    known = _known_numbers(project) | _new_numbers(project, wanted)
    return {i: format_public_id(project.id_prefix, known[i]) for i in wanted}


def assign_public_ids(project: Project, item_ids: Iterable[str]) -> dict[str, str]:
    """Internal id -> public id for ``item_ids``, numbering those that have none yet.

    Runs inside the caller's transaction when there is one, so an export that
    fails later rolls the new numbers back with it.
    """
    wanted = list(dict.fromkeys(item_ids))
    numbers = _new_numbers(project, wanted)
    if numbers:
        with project.transaction():
            project.db.executemany(
                "INSERT INTO public_ids(item_id, number) VALUES (?, ?)", numbers.items()
            )
    return preview_public_ids(project, wanted)


def _known_numbers(project: Project) -> dict[str, int]:
    return {r["item_id"]: r["number"] for r in project.db.execute("SELECT * FROM public_ids")}


def _new_numbers(project: Project, wanted: list[str]) -> dict[str, int]:
    """The numbers the un-numbered items of ``wanted`` get next (salted order)."""
    known = _known_numbers(project)
    salt = project.get_meta("id_salt")
    if not salt:
        raise LabelerError("this project has no ID salt in its settings; it cannot number items")
    new = sorted((i for i in wanted if i not in known), key=lambda i: _salted(salt, i))
    start = max(known.values(), default=0) + 1
    return {item_id: start + n for n, item_id in enumerate(new)}


def set_public_number(project: Project, item_id: str, number: int) -> None:
    """Give an item a known number (importing a published item keeps its public ID)."""
    taken = project.db.execute(
        "SELECT item_id FROM public_ids WHERE number = ?", (number,)
    ).fetchone()
    if taken is not None and taken["item_id"] != item_id:
        raise LabelerError(
            f"{format_public_id(project.id_prefix, number)} already belongs to item "
            f"{taken['item_id']}"
        )
    with project.transaction():
        project.db.execute(
            "INSERT INTO public_ids(item_id, number) VALUES (?, ?) "
            "ON CONFLICT(item_id) DO UPDATE SET number = excluded.number",
            (item_id, number),
        )


def internal_ids_by_public(project: Project) -> dict[str, str]:
    """Public id -> internal id (for importing published results)."""
    return {public: internal for internal, public in stored_public_ids(project).items()}


def _salted(salt: str, item_id: str) -> str:
    return hashlib.sha256(f"{salt}:{item_id}".encode()).hexdigest()
