"""Which answers count: one rule for every view, ``labeler report`` and the export.

A cell's latest answer counts when the model answered (any status but ``api_error``) and
the answer is for the item as it is now (not :func:`is_stale`). Truncated, empty, refused
and parse-error answers are the model's answers and count with what they scored (usually
0). ``docs/decisions/0011-which-answers-count.md`` says why.
"""

from __future__ import annotations

from labeler.prompts import needs_image
from labeler.status import ResponseStatus
from labeler.store import Item, Response
from labeler.store.score_cache import CellRow

#: Response statuses that carry no answer from the model (a transport failure is
#: not a score of 0); such cells are shown in review but never counted.
NO_ANSWER_STATUSES: frozenset[str] = frozenset({ResponseStatus.API_ERROR})


def answer_counts(status: str, stale: bool) -> bool:
    """Whether a cell's latest answer counts in every published and shown number.

    It counts when the model answered — every status but ``api_error``, so a
    truncated, empty, refused or unparsable answer counts with the score its
    names earn (0 when it has none) — and was given for the item as it is now
    (``stale`` False). This is the one rule; ``docs/decisions/0011`` says why.
    """
    return status not in NO_ANSWER_STATUSES and not stale


def is_stale(answer: CellRow | Response, item: Item) -> bool:
    """Whether the answer was given for another subject or question image than the item's now.

    Answers recorded before the store kept this (``asked_subject`` NULL) count as current.
    """
    return _stale(answer.asked_subject, answer.asked_image, answer.condition, item)


def _stale(subject: str | None, image: str | None, condition: str, item: Item) -> bool:
    """:func:`is_stale` on the answer's columns."""
    if subject is None:
        return False
    if subject != item.subject:
        return True
    return needs_image(condition) and image != item.question_asset
