"""Gemini batch mode on the loopback server: ``models/{model}:batchGenerateContent`` with
inline requests, and ``batches/{id}``, whose finished job carries the answers inline
(``output.inlinedResponses``), each with the metadata it was sent with."""

from __future__ import annotations

import json
import re

from tests.runs.loopback_batches import Answer, BatchJobs, Job

_STATES = {"ended": "BATCH_STATE_SUCCEEDED", "expired": "BATCH_STATE_EXPIRED"}


def routes(server, jobs: BatchJobs) -> list:
    def create(match, headers, raw: bytes):
        from tests.runs.runs_loopback import _gemini_request

        refused = jobs.refusal("gemini")
        if refused is not None:
            return refused
        model = match.group(1)
        batch = json.loads(raw)["batch"]
        answers = []
        for index, entry in enumerate(batch["inputConfig"]["requests"]["requests"]):
            problems: list[str] = []
            seen = _gemini_request(model, entry["request"], headers, server, problems)
            status, payload = jobs.answer("gemini", seen, problems)
            key = (entry.get("metadata") or {}).get("key") or f"r{index}"
            answers.append(Answer(key, status, payload))
        job = jobs.create(jobs.new_id("batches/"), "gemini", model, answers)
        return 200, {}, _operation(job, batch.get("displayName", ""))

    def get(match, headers, _raw):
        if headers.get("x-goog-api-key") != server.api_key:
            server._record_violation("gemini batch: missing or wrong x-goog-api-key")
        return 200, {}, _operation(jobs.poll(f"batches/{match.group(1)}"), "")

    return [
        ("POST", re.compile(r"^/v1beta/models/([^/:]+):batchGenerateContent$"), create),
        ("GET", re.compile(r"^/v1beta/batches/([^/]+)$"), get),
    ]


def _operation(job: Job, display_name: str) -> dict:
    state = "BATCH_STATE_RUNNING" if not job.done else _STATES.get(job.end, "BATCH_STATE_CANCELLED")
    metadata: dict = {
        "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
        "model": f"models/{job.model}",
        "displayName": display_name,
        "state": state,
        "name": job.id,
    }
    if job.done:
        inline = []
        for answer in job.finished():
            if answer.status == 200:
                inline.append({"response": answer.body, "metadata": {"key": answer.custom_id}})
            else:
                error = answer.body["error"]
                inline.append(
                    {
                        "error": {"code": error["code"], "message": error["message"]},
                        "metadata": {"key": answer.custom_id},
                    }
                )
        metadata["output"] = {"inlinedResponses": {"inlinedResponses": inline}}
    return {"name": job.id, "metadata": metadata, "done": job.done}
