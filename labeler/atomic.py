"""Atomic file writes: a reader never sees a half-written file.

Data goes to a temporary file in the target's own folder (same filesystem),
is flushed and fsync'ed, then renamed over the target. A crash leaves either
the old file or the new one, never a torn mix. The file gets the permissions a
plain ``open`` would give it (``0666`` minus the umask), as ``project.sqlite`` does,
not ``mkstemp``'s private ``0600``: a teammate sharing the project folder must be able
to read its images too.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """Open a temp file beside ``path``; on clean exit rename it onto ``path``.

    On an exception the temp file is removed and ``path`` is left untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, default_mode())
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def default_mode(full: int = 0o666) -> int:
    """``full`` minus the process umask: the mode ``open``/``mkdir`` would create with.

    Read from ``/proc/self/status`` where it can be (Linux), because the only portable way,
    ``os.umask``, sets the umask while reading it and so races with other threads.
    """
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", "rb") as fh:
        for line in fh:
            if line.startswith(b"Umask:"):
                return full & ~int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return full & ~mask


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Atomically replace ``path`` with ``data``."""
    with atomic_open(path, "wb") as fh:
        fh.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Atomically replace ``path`` with ``text`` (UTF-8)."""
    with atomic_open(path, "w") as fh:
        fh.write(text)
