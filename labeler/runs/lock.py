"""One run per project at a time, held by an OS file lock in the project folder.

Two runs on one project would each plan the same unanswered cells and pay for every
call twice. ``fcntl.flock`` on ``run.lock`` is exclusive between processes, and the
kernel releases it when the holder's process ends in any way (even ``kill -9``), so a
crashed run never leaves a stale lock to clean up by hand. The holder writes its pid
and start time into the file only so that the refusal can name them.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from labeler.errors import LabelerError

LOCK_NAME = "run.lock"


class RunInProgress(LabelerError):
    """Another process is running models on this project."""


@contextmanager
def run_lock(folder: Path) -> Iterator[None]:
    """Hold the project's run lock for the ``with`` block, or raise :class:`RunInProgress`."""
    path = folder / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunInProgress(_refusal(path)) from None
        os.ftruncate(fd, 0)
        holder = {"pid": os.getpid(), "started": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
        os.pwrite(fd, json.dumps(holder).encode("utf-8"), 0)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _refusal(path: Path) -> str:
    """The message for a second run, naming the holder when its note can be read."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
        who = f" (pid {holder['pid']}, started {holder['started']})"
    except (OSError, ValueError, KeyError, TypeError):
        who = ""
    return f"a run is already in progress on this project{who}; wait for it or stop it"
