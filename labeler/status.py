"""The one type for a stored answer's status.

Every layer that looks at an answer's outcome (providers, the runner, the store, results, the
views, export) uses this enum instead of repeating strings. It is a ``StrEnum`` because the value
is what the store's ``CHECK`` constraint and the exported ``results.jsonl`` hold, so a member
compares equal to (and serialises as) its string.
"""

from __future__ import annotations

from enum import StrEnum


class ResponseStatus(StrEnum):
    """How one model call ended, as stored (one per answer)."""

    OK = "ok"  #: an answer arrived and (after parsing) is usable
    TRUNCATED = "truncated"  #: the model hit its output limit; what arrived is kept
    EMPTY = "empty"  #: the call succeeded but the model said nothing
    REFUSED = "refused"  #: the model declined (a stop reason or a plain-text refusal)
    API_ERROR = "api_error"  #: the call itself failed: no answer from the model
    PARSE_ERROR = "parse_error"  #: an answer arrived but no names could be read from it


#: Every status, in the store's order.
RESPONSE_STATUSES: tuple[ResponseStatus, ...] = tuple(ResponseStatus)
