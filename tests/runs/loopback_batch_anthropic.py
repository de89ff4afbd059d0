"""Anthropic's Message Batches on the loopback server: create, retrieve, and the
results file (JSONL at ``results_url``) with ``succeeded``, ``errored``, ``canceled``
and ``expired`` results, as the Message Batches API documents."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from tests.runs.loopback_batches import Answer, BatchJobs, Job

_CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def routes(server, jobs: BatchJobs) -> list:
    def create(_match, headers, raw: bytes):
        from tests.runs.runs_loopback import _anthropic_request

        refused = jobs.refusal("anthropic")
        if refused is not None:
            return refused
        _auth(server, headers)
        body = json.loads(raw)
        answers, ids = [], set()
        for request in body["requests"]:
            custom_id, params = request["custom_id"], request["params"]
            if not _CUSTOM_ID.match(custom_id) or custom_id in ids:
                server._record_violation(f"anthropic: bad or repeated custom_id {custom_id!r}")
            ids.add(custom_id)
            problems: list[str] = []
            if "stream" in params:
                problems.append("stream in a batch request")
            seen = _anthropic_request(params, headers, server, problems)
            status, payload = jobs.answer("anthropic", seen, problems)
            answers.append(Answer(custom_id, status, payload))
        job = jobs.create(jobs.new_id("msgbatch_"), "anthropic", "", answers)
        return 200, {}, _batch_object(server, job)

    def retrieve(match, headers, _raw):
        _auth(server, headers)
        return 200, {}, _batch_object(server, jobs.poll(match.group(1)))

    def results(match, headers, _raw):
        _auth(server, headers)
        job = jobs.peek(match.group(1))
        if not job.done:
            return 404, {}, {"type": "error", "error": {"type": "not_found_error", "message": "x"}}
        lines = [
            json.dumps({"custom_id": a.custom_id, "result": _result(a)}) for a in job.finished()
        ]
        kind = "expired" if job.end == "expired" else "canceled"
        lines += [
            json.dumps({"custom_id": a.custom_id, "result": {"type": kind}})
            for a in job.unanswered()
        ]
        return 200, {"content-type": "application/binary"}, "\n".join(lines).encode()

    return [
        ("POST", re.compile(r"^/v1/messages/batches$"), create),
        ("GET", re.compile(r"^/v1/messages/batches/([^/]+)$"), retrieve),
        ("GET", re.compile(r"^/v1/messages/batches/([^/]+)/results$"), results),
    ]


def _auth(server, headers) -> None:
    keys = {headers.get("x-api-key"), (headers.get("authorization") or "").removeprefix("Bearer ")}
    if server.api_key not in keys or not headers.get("anthropic-version"):
        server._record_violation("anthropic batch: missing key or anthropic-version")


def _result(answer) -> dict:
    if answer.status == 200:
        return {"type": "succeeded", "message": answer.body}
    return {"type": "errored", "error": answer.body}


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _batch_object(server, job: Job) -> dict:
    finished = job.finished() if job.done else []
    errored = sum(1 for a in finished if a.status != 200)
    left = job.unanswered() if job.done else []
    return {
        "id": job.id,
        "type": "message_batch",
        "processing_status": "ended" if job.done else "in_progress",
        "request_counts": {
            "processing": 0 if job.done else len(job.answers),
            "succeeded": len(finished) - errored,
            "errored": errored,
            "canceled": len(left) if job.end == "cancelled" else 0,
            "expired": len(left) if job.end == "expired" else 0,
        },
        "ended_at": _stamp() if job.done else None,
        "created_at": _stamp(),
        "expires_at": _stamp(),
        "archived_at": None,
        "cancel_initiated_at": None,
        "results_url": f"{server.url}/v1/messages/batches/{job.id}/results" if job.done else None,
    }
