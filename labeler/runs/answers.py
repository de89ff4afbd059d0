"""A finished call as the row the store keeps, and storing it.

The parser decides an answered call's status; an answer the parser or the store cannot take
as it is is still kept, raw, as one ``parse_error`` row (a paid answer is never dropped), and
one the project cannot store at all is spooled (:mod:`labeler.runs.spool`). On a PostgreSQL
project the call's claim is marked done in the transaction that stores its answer.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import replace

from labeler.prompts import prompt_sha256
from labeler.providers.base import EMPTY, OK, PARSE_ERROR, REFUSED, TRUNCATED, CallResult
from labeler.runs import spool
from labeler.runs.claims import CallClaims
from labeler.runs.cost import call_cost
from labeler.runs.parse import Label, ParsedAnswer, parse_answer
from labeler.runs.plan import PlannedCall
from labeler.store import NewResponse, Project


def store_answer(
    project: Project,
    claims: CallClaims | None,
    call: PlannedCall,
    result: CallResult,
    attempts: int,
    response: NewResponse,
) -> NewResponse:
    """Store one answer and return the row stored; an answer that cannot be stored as is is
    kept raw.

    The call is paid for, and the other calls in flight must go on: whatever a
    model sent that the store refuses becomes one ``parse_error`` row holding the
    raw text and the reason.
    """
    try:
        _record(project, claims, call, response)
    except spool.StoreWriteFailed:
        raise
    except Exception as exc:
        response = unparsed_response(call, result, attempts, response.run_id, exc)
        _record(project, claims, call, response)
    return response


def _record(
    project: Project, claims: CallClaims | None, call: PlannedCall, response: NewResponse
) -> None:
    """Store (and mark its claim done, in one transaction); if the store refuses (disk
    full, locked, read-only) spool the paid answer."""
    try:
        with project.transaction() if claims else contextlib.nullcontext():
            project.responses.record(response)
            if claims is not None:
                claims.finish(call)
    except sqlite3.OperationalError as exc:
        raise spool.keep(project, response, exc) from exc


def answer_row(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None
) -> NewResponse:
    """:func:`to_new_response`, and if the parser itself fails, the raw answer kept unparsed."""
    try:
        return to_new_response(call, result, attempts, run_id)
    except Exception as exc:  # a parser bug must not cost a paid answer nor end the run
        return unparsed_response(call, result, attempts, run_id, exc)


def to_new_response(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None
) -> NewResponse:
    """The stored row for one finished call: final status, parsed answer, audit fields.

    The parser decides an answered call's status: ``ok``, ``refused`` (a plain-text decline
    with no names), ``parse_error``, or ``truncated`` when the provider hit its limit.
    """
    status = result.status
    if status in (OK, TRUNCATED) and result.text is not None:
        parsed = parse_answer(result.text, truncated=status == TRUNCATED)
        status = parsed.status
    else:
        parsed = ParsedAnswer(None, [], False, None)
    error = result.error
    if error is None and status in (PARSE_ERROR, TRUNCATED, REFUSED):
        error = parsed.error
    if error is None and status == EMPTY:
        error = f"no answer text (finish_reason={result.finish_reason})"
        reasoning, output = result.usage.reasoning_tokens, result.usage.output_tokens
        if reasoning and output and reasoning >= output:
            error += f"; reasoning used the whole output budget ({reasoning} tokens)"
    if error is None and status == REFUSED:
        error = f"model declined (finish_reason={result.finish_reason})"
    return _row(call, result, attempts, run_id, status, parsed, error)


def unparsed_response(
    call: PlannedCall, result: CallResult, attempts: int, run_id: int | None, exc: Exception
) -> NewResponse:
    """The row for an answer that could not be parsed or stored: raw text kept, no labels.

    Text that SQLite cannot encode (lone surrogates) is kept as backslash escapes.
    """
    status = PARSE_ERROR if result.text is not None else result.status
    error = _storable(f"answer could not be parsed or stored: {type(exc).__name__}: {exc}")
    raw = replace(result, text=_storable(result.text))
    return _row(call, raw, attempts, run_id, status, ParsedAnswer(None, [], False, None), error)


def _storable(text: str | None) -> str | None:
    if text is None:
        return None
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _row(
    call: PlannedCall,
    result: CallResult,
    attempts: int,
    run_id: int | None,
    status: str,
    parsed: ParsedAnswer,
    error: str | None,
) -> NewResponse:
    image = call.image
    return NewResponse(
        item_id=call.item_id,
        model=call.model.name,
        condition=call.condition,
        request_hash=call.request_hash,
        status=status,
        finish_reason=result.finish_reason,
        raw_text=_storable(result.text),
        diagram_is=parsed.diagram_is,
        labels=[_label_json(x) for x in parsed.labels],
        parse_ok=parsed.parse_ok,
        usage=result.usage,
        latency_ms=round(result.latency_s * 1000, 3),
        attempts=attempts,
        cost_usd=call_cost(call.model, result.usage, call.batch),
        settings=dict(call.settings),
        image_width=image.width if image else None,
        image_height=image.height if image else None,
        image_bytes=len(image.data) if image else None,
        error=error,
        run_id=run_id,
        parse_notes="; ".join(parsed.notes) or None,
        prompt_sha256=prompt_sha256(call.prompt),
    )


def _label_json(label: Label) -> dict[str, str]:
    """A stored label; ``marker`` only when the answer's structure gave one."""
    row = {"name": label.name, "location_hint": label.location_hint}
    if label.marker:
        row["marker"] = label.marker
    return row
