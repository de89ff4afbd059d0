"""Runs from several machines on one PostgreSQL project share its calls through claims.

A SQLite project allows one run at a time (:mod:`labeler.runs.lock`). A PostgreSQL project is
a team's: each runner plans as usual, offers its calls as claims and sends only those it takes
(:mod:`labeler.store.claims`), so no call is sent twice while it has a live holder and every
runner works until all calls are answered — including calls of a runner that died, which
are taken over when their lease runs out. A call is sent twice only when its runner dies
while it is in flight (the answer never reached the store), which is the one way a paid call
can be repeated (decision 0023).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from labeler.runs.lock import run_lock
from labeler.store import Project
from labeler.store.claims import ClaimKey, Taken
from labeler.store.database import is_postgres

if TYPE_CHECKING:
    from labeler.runs.plan import PlannedCall

DEFAULT_LEASE_S = 60.0


@contextlib.contextmanager
def run_guard(project: Project) -> Iterator[None]:
    """SQLite: the one-run lock. PostgreSQL: nothing — runs share the work through claims."""
    if is_postgres(project.db):
        yield
    else:
        with run_lock(project.folder):
            yield


class CallClaims:
    """One runner's side of the claims of its planned calls."""

    def __init__(self, project: Project, calls: Sequence[PlannedCall], lease_s: float) -> None:
        self.project = project
        self.lease_s = lease_s
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        bases = project.claims.bases()
        self._keys = {_cell(call): (*_cell(call), bases.get(_cell(call)[:3], 0)) for call in calls}
        project.claims.offer(self._keys.values())

    @property
    def poll_s(self) -> float:
        """How long to wait before looking again at a call another runner holds."""
        return min(1.0, self.lease_s / 4)

    def take(self, call: PlannedCall) -> Taken:
        """Take ``call`` for this runner, or say it is done or held elsewhere."""
        return self.project.claims.take(self._key(call), self.holder, self.lease_s)

    def finish(self, call: PlannedCall) -> None:
        """Mark ``call`` answered, inside the transaction storing its answer."""
        self.project.claims.finish(self._key(call))

    async def heartbeat(self) -> None:
        """Renew this runner's leases until cancelled (a dead runner's leases run out)."""
        while True:
            await asyncio.sleep(self.lease_s / 3)
            self.project.claims.renew(self.holder, self.lease_s)

    def release(self) -> None:
        """Give back the claims not answered (cancelled, capped or failed run)."""
        self.project.claims.release(self.holder)

    def _key(self, call: PlannedCall) -> ClaimKey:
        return self._keys[_cell(call)]


def make_claims(
    project: Project, calls: Sequence[PlannedCall], lease_s: float
) -> CallClaims | None:
    """The claims of ``calls`` on a PostgreSQL project; None on SQLite (the run lock rules)."""
    return CallClaims(project, calls, lease_s) if is_postgres(project.db) else None


def _cell(call: PlannedCall) -> tuple[str, str, str, str]:
    return (call.item_id, call.model.name, call.condition, call.request_hash)
