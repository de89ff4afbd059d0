"""What must hold before an item may be marked ``ready``: no key text left readable.

An item's question is checked when it is stored and whenever it is erased again
(:func:`check_residual_labels`). :func:`update_item` is the one way the CLI and the GUI change
an item's fields: marking it ``ready`` matches the current key against what the last check of
the current question read (the key may have changed since) and is refused with the names still
readable, unless the curator has recorded for this question why they are acceptable
(:func:`accept_residual_labels` — e.g. the "readable" word is part of the drawing).
"""

from __future__ import annotations

import getpass
from collections.abc import Sequence

from labeler.errors import LabelerError
from labeler.store import Item, Project
from labeler.store.checks import ResidualCheck


class ResidualLabels(LabelerError):
    """Key text is still readable in the question; the item cannot be ``ready`` yet."""

    def __init__(self, item_id: str, names: tuple[str, ...]) -> None:
        listed = ", ".join(repr(n) for n in names)
        super().__init__(
            f"item {item_id} cannot be ready: its question still shows key text ({listed}). "
            "Erase those labels (add a box or paint over them in Curate, then re-erase), or "
            "record why it is acceptable: labeler items set-status DIR ID ready --accept REASON"
        )
        self.item_id, self.names = item_id, names


def check_residual_labels(
    project: Project,
    item_id: str,
    *,
    ocr: bool | None = None,
    lines: Sequence[str] | None = None,
) -> ResidualCheck:
    """Read the item's current question back and store which key names are readable.

    ``ocr`` defaults to what the erase method needs (:func:`labeler.erase.residual.needs_ocr`).
    ``lines``: the question's OCR lines, already read from its pixels
    (:class:`labeler.erase.residual.BackgroundRead`), so the stored image is not read again.
    """
    from labeler.erase.residual import needs_ocr, read_question, readable_in

    item = project.items.get(item_id)
    png = project.assets.read(item.question_asset) if item.question_asset else None
    pdf = project.assets.read(item.question_pdf_asset) if item.question_pdf_asset else None
    words, method = read_question(
        png, pdf, ocr=needs_ocr(item.erase_method) if ocr is None else ocr, lines=lines
    )
    return project.residual_checks.record(
        item_id,
        readable_in(_names(project, item_id), words),
        method=method,
        read_text=words,
        question=item.question_asset,
    )


def check_is_current(project: Project, item_id: str) -> bool:
    """Whether the item's question has been read back since it last changed (then
    :func:`ready_blockers` answers at once; otherwise it reads the question, maybe by OCR)."""
    check = project.residual_checks.get(item_id)
    return check is not None and check.question == project.items.get(item_id).question_asset


def ready_blockers(project: Project, item_id: str) -> tuple[str, ...]:
    """Key names (and alternatives) still readable in the item's current question.

    Empty when the question is clean or the curator accepted its check. Fast: the current key
    is matched against the words stored by the last check of this question; the question is
    read again only if it changed or was never checked.
    """
    from labeler.erase.residual import readable_in

    check = project.residual_checks.get(item_id)
    if check is None or not check_is_current(project, item_id):
        check = check_residual_labels(project, item_id)
    if check.override_why:
        return ()
    return tuple(readable_in(_names(project, item_id), check.read_text))


def _names(project: Project, item_id: str) -> list[str]:
    return [n for e in project.items.key(item_id) for n in (e.name, *e.alternatives) if n]


def accept_residual_labels(project: Project, item_id: str, reason: str) -> ResidualCheck:
    """Record (who, why, when) that the readable names of the current check are acceptable."""
    if not reason.strip():
        raise LabelerError("say why the readable key text is acceptable (a reason is required)")
    item = project.items.get(item_id)
    check = project.residual_checks.get(item_id)
    if check is None or check.question != item.question_asset:
        check_residual_labels(project, item_id)
    project.residual_checks.override(item_id, why=reason.strip(), by=_who())
    accepted = project.residual_checks.get(item_id)
    assert accepted is not None
    return accepted


def update_item(
    project: Project, item_id: str, *, expected_version: int | None = None, **fields: str
) -> Item:
    """Change item fields (subject, tier, pattern, status, notes), enforcing readiness.

    ``expected_version``: refuse (``EditConflict``) if the item changed since it was read.
    """
    if fields.get("status") == "ready" and (blockers := ready_blockers(project, item_id)):
        raise ResidualLabels(item_id, blockers)
    return project.items.update(item_id, expected_version=expected_version, **fields)


def _who() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (some containers)
        return "unknown"
