"""OpenAI's Batch API on the loopback server: ``/v1/files`` (multipart upload of the
JSONL input, ``/content`` download of the output and error files) and ``/v1/batches``.

An answered request is a line ``{"custom_id", "response": {"status_code", "body"}}`` of
the output file (200) or of the error file (any other status); a request the job never
reached (expired, cancelled) is an error-file line with ``error.code`` ``batch_expired``
or ``batch_cancelled``, as the Batch API documents.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import re
import time

from tests.runs.loopback_batches import Answer, BatchJobs, Job

_END = {"ended": "completed", "expired": "expired", "cancelled": "cancelled"}


def routes(server, jobs: BatchJobs) -> list:
    files: dict[str, tuple[str, bytes]] = {}  # id -> (purpose, bytes)

    def upload(_match, headers, raw: bytes):
        _auth(server, headers)
        parts = _multipart(headers["content-type"], raw)
        if parts.get("purpose") != b"batch":
            server._record_violation(f"openai: file purpose {parts.get('purpose')!r}")
        data = parts["file"]
        file_id = jobs.new_id("file-")
        files[file_id] = ("batch", data)
        return 200, {}, _file_object(file_id, data, "labeler-batch.jsonl", "batch")

    def create(_match, headers, raw: bytes):
        from tests.runs.runs_loopback import _openai_request

        refused = jobs.refusal("openai")
        if refused is not None:
            return refused
        _auth(server, headers)
        body = json.loads(raw)
        if body.get("endpoint") != "/v1/chat/completions" or body.get("completion_window") != "24h":
            server._record_violation(f"openai: batch create {body}")
        _purpose, data = files[body["input_file_id"]]
        answers, ids = [], set()
        for line in data.decode("utf-8").splitlines():
            row = json.loads(line)
            if row["method"] != "POST" or row["url"] != body["endpoint"]:
                server._record_violation(f"openai: batch line {row['method']} {row['url']}")
            if row["custom_id"] in ids:
                server._record_violation(f"openai: custom_id {row['custom_id']} twice")
            ids.add(row["custom_id"])
            problems: list[str] = []
            seen = _openai_request(row["body"], headers, server, problems)
            status, payload = jobs.answer("openai", seen, problems)
            answers.append(Answer(row["custom_id"], status, payload))
        job = jobs.create(jobs.new_id("batch_"), "openai", "", answers)
        job_json = _batch_object(job, body["input_file_id"], "validating")
        return 200, {}, job_json

    def retrieve(match, headers, _raw):
        _auth(server, headers)
        job = jobs.poll(match.group(1))
        if not job.done:
            return 200, {}, _batch_object(job, "file-in", "in_progress")
        output = [_line(a) for a in job.finished() if a.status == 200]
        errors = [_line(a) for a in job.finished() if a.status != 200]
        code = "batch_expired" if job.end == "expired" else "batch_cancelled"
        errors += [
            {
                "id": f"batch_req_{a.custom_id}",
                "custom_id": a.custom_id,
                "response": None,
                "error": {"code": code, "message": "This request could not be executed."},
            }
            for a in job.unanswered()
        ]
        out_id = err_id = None
        if output:
            out_id = f"file-out-{job.id}"
            files[out_id] = ("batch_output", _jsonl(output))
        if errors:
            err_id = f"file-err-{job.id}"
            files[err_id] = ("batch_output", _jsonl(errors))
        done = _batch_object(job, "file-in", _END[job.end])
        done.update(output_file_id=out_id, error_file_id=err_id)
        return 200, {}, done

    def content(match, headers, _raw):
        _auth(server, headers)
        _purpose, data = files[match.group(1)]
        return 200, {"content-type": "application/octet-stream"}, data

    return [
        ("POST", re.compile(r"^/v1/files$"), upload),
        ("POST", re.compile(r"^/v1/batches$"), create),
        ("GET", re.compile(r"^/v1/batches/([^/]+)$"), retrieve),
        ("GET", re.compile(r"^/v1/files/([^/]+)/content$"), content),
    ]


def _auth(server, headers) -> None:
    if headers.get("authorization") != f"Bearer {server.api_key}":
        server._record_violation("openai batch: missing or wrong bearer key")


def _multipart(content_type: str, raw: bytes) -> dict[str, bytes]:
    """The fields of a ``multipart/form-data`` body by name."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"content-type: {content_type}\r\n\r\n".encode() + raw
    )
    return {
        part.get_param("name", header="content-disposition"): part.get_payload(decode=True)
        for part in message.iter_parts()
    }


def _line(answer: Answer) -> dict:
    return {
        "id": f"batch_req_{answer.custom_id}",
        "custom_id": answer.custom_id,
        "response": {"status_code": answer.status, "request_id": "req", "body": answer.body},
        "error": None,
    }


def _jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8")


def _file_object(file_id: str, data: bytes, name: str, purpose: str) -> dict:
    return {
        "id": file_id,
        "object": "file",
        "bytes": len(data),
        "created_at": int(time.time()),
        "filename": name,
        "purpose": purpose,
        "status": "processed",
    }


def _batch_object(job: Job, input_file: str, status: str) -> dict:
    finished = job.finished() if job.done else []
    failed = sum(1 for a in finished if a.status != 200)
    return {
        "id": job.id,
        "object": "batch",
        "endpoint": "/v1/chat/completions",
        "input_file_id": input_file,
        "completion_window": "24h",
        "status": status,
        "output_file_id": None,
        "error_file_id": None,
        "created_at": job.created,
        "request_counts": {
            "total": len(job.answers),
            "completed": len(finished) - failed,
            "failed": failed + (len(job.unanswered()) if job.done else 0),
        },
    }
