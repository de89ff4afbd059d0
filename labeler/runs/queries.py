"""Run-specific reads of the project store that the store itself does not offer."""

from __future__ import annotations

from collections.abc import Iterable

from labeler.store import Project

Cell = tuple[str, str, str, str]  # item_id, model, condition, request_hash


def cells_with_status(project: Project, statuses: Iterable[str]) -> set[Cell]:
    """(item, model, condition, request hash) of every response in one of ``statuses``.

    Resume is decided per cell *and* hash: the same request text for another
    cell (two items with identical subject and image) must not count as done.
    """
    statuses = list(statuses)
    if not statuses:
        return set()
    marks = ", ".join("?" for _ in statuses)
    rows = project.db.execute(
        "SELECT DISTINCT item_id, model, condition, request_hash FROM responses"
        f" WHERE status IN ({marks})",
        statuses,
    )
    return {(r[0], r[1], r[2], r[3]) for r in rows}
