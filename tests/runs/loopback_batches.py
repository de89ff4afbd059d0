"""The state every loopback batch API shares: jobs, their answers, and how they end.

Each provider's batch protocol lives in its own module (``loopback_batch_openai``,
``_anthropic``, ``_gemini``); this one holds the jobs. A job's requests are checked and
answered when it is created, exactly as the single-call routes would (the same request
checks, scripts and response bodies), then the job reports "in progress" for
``policy.polls`` retrieves before it ends as ``policy.end`` — ``ended``, or ``expired``
/ ``cancelled`` after answering only the first ``policy.answered`` requests.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.runs.runs_loopback import LoopbackServer


@dataclass
class BatchPolicy:
    """How the jobs created from now on behave."""

    polls: int = 1
    end: str = "ended"  # ended | expired | cancelled
    answered: int | None = None  # with expired/cancelled: how many were answered
    refuse: str | None = None  # this provider's create answers HTTP 400 (nothing created)


@dataclass(frozen=True)
class Answer:
    """One request of a job as the single-call route would have answered it."""

    custom_id: str
    status: int
    body: dict


@dataclass
class Job:
    id: str
    provider: str
    model: str
    answers: list[Answer]
    polls_left: int
    end: str
    answered: int | None
    created: int = field(default_factory=lambda: int(time.time()))

    @property
    def done(self) -> bool:
        return self.polls_left < 0

    def finished(self) -> list[Answer]:
        """The answers the job produced before it ended."""
        if self.end == "ended" or self.answered is None:
            return list(self.answers)
        return self.answers[: self.answered]

    def unanswered(self) -> list[Answer]:
        return self.answers[len(self.finished()) :]


class BatchJobs:
    """Every job created on one server, and what tests read back."""

    def __init__(self, server: LoopbackServer) -> None:
        self.server = server
        self.policy = BatchPolicy()
        self.jobs: dict[str, Job] = {}
        self.created: list[Job] = []
        self.retrieves = 0
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def new_id(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}{next(self._ids)}"

    def create(self, job_id: str, provider: str, model: str, answers: list[Answer]) -> Job:
        policy = self.policy
        job = Job(job_id, provider, model, answers, policy.polls, policy.end, policy.answered)
        with self._lock:
            self.jobs[job_id] = job
            self.created.append(job)
        return job

    def refusal(self, provider: str) -> tuple[int, dict, dict] | None:
        """The 400 a refused create gets, in the provider's error format."""
        if self.policy.refuse != provider:
            return None
        from tests.runs.runs_loopback import _error_body

        body = _error_body(provider, 400)
        return 400, {}, body

    def poll(self, job_id: str) -> Job:
        """A retrieve: one poll closer to the end."""
        with self._lock:
            job = self.jobs[job_id]
            self.retrieves += 1
            job.polls_left -= 1
            return job

    def peek(self, job_id: str) -> Job:
        with self._lock:
            return self.jobs[job_id]

    def finish_all(self) -> None:
        """Every job ends at its next retrieve (its ending as set when it was created)."""
        with self._lock:
            for job in self.jobs.values():
                job.polls_left = min(job.polls_left, 0)

    def answer(self, provider: str, seen, problems: list[str]) -> tuple[int, dict]:
        """What the single-call route answers ``seen`` with (scripts apply), recorded."""
        from tests.runs.runs_loopback import _render

        self.server._record(seen, problems)
        status, _headers, payload = _render(provider, seen, self.server._next_reply(seen))
        return status, payload


def install_batch_apis(server: LoopbackServer) -> BatchJobs:
    """Add the three providers' batch routes to ``server``."""
    from tests.runs import loopback_batch_anthropic, loopback_batch_gemini, loopback_batch_openai

    jobs = BatchJobs(server)
    for module in (loopback_batch_openai, loopback_batch_anthropic, loopback_batch_gemini):
        server.routes += module.routes(server, jobs)
    return jobs
