"""Writing an export folder all at once.

Every file is written into a staging folder beside the target (same filesystem) as it
is made (:func:`staged`: a file may be given as chunks, so an export of any size streams
its rows to disk instead of holding them), fsync'ed, and then swapped in. On Linux the
swap is one ``renameat2(RENAME_EXCHANGE)``, so there is no moment when the export path
is missing; elsewhere it is two renames
with the old folder put back on failure. Readers see the old export or the new one,
and an export that fails before the swap leaves the target untouched. Because the swap
replaces the whole folder, the target must be empty or an earlier export: anything
else in it would be lost, so it is refused instead.

Staging folders carry the writer's process id, so one left behind by an export that
was killed (its process is gone) is removed by the next export to the same target.
A disk fault (read-only folder, full disk, no permission) is an :class:`ExportError`
saying which, with nothing half-written left behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Protocol

from labeler.atomic import default_mode
from labeler.errors import ExportError
from labeler.export.schema import EXPORT_FILES

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_DISK_FAULTS = {
    errno.EROFS: "is on a read-only disk",
    errno.ENOSPC: "is on a full disk",
    errno.EDQUOT: "is over its disk quota",
    errno.EACCES: "is not writable by you",
    errno.EPERM: "is not writable by you",
    errno.EBUSY: "is a mount point or in use (an export replaces the whole folder)",
}


class Staging(Protocol):
    """Where an export's files go as they are made: a staging folder, or nowhere (a check)."""

    def write(self, relative: str, chunks: Iterable[bytes]) -> int:
        """Write one file from ``chunks``; returns its size in bytes."""
        ...


class Discard:
    """A :class:`Staging` that keeps nothing: what :func:`~labeler.export.exporter.check_export`
    builds into, so a check validates exactly the bytes an export would write."""

    def write(self, relative: str, chunks: Iterable[bytes]) -> int:
        return sum(map(len, chunks))


class _Folder:
    """The staging folder: each file written, flushed and fsync'ed as its chunks arrive."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write(self, relative: str, chunks: Iterable[bytes]) -> int:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        size = 0
        with open(path, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
                size += len(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        return size


@contextlib.contextmanager
def staged(target: str | os.PathLike[str]) -> Iterator[Staging]:
    """A staging folder beside ``target`` that replaces it when the block ends without error.

    Anything raised inside the block (a validation error, a Cancel, a disk fault) removes the
    staging folder and leaves ``target`` as it was.
    """
    target = Path(target)
    _check_replaceable(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_abandoned(target)
        staging = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".tmp", dir=target.parent))
    except OSError as exc:
        raise _disk_error(target, exc) from None
    try:
        os.chmod(staging, default_mode(0o777))  # mkdtemp makes 0700; a share wants the umask
        yield _Folder(staging)
        _swap_in(staging, target)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise _disk_error(target, exc) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _fsync_dir(target.parent)


def write_export(target: str | os.PathLike[str], files: Mapping[str, bytes]) -> Path:
    """Replace ``target`` with a folder holding exactly ``files`` (relative path -> bytes)."""
    with staged(target) as out:
        for relative, data in files.items():
            out.write(relative, (data,))
    return Path(target)


def _prefix(target: Path) -> str:
    return f".{target.name}.{os.getpid()}."


def _swap_in(staging: Path, target: Path) -> None:
    """Put ``staging`` at ``target``; the old export (if any) ends up deleted."""
    if not target.exists():
        os.replace(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the previous export
        return
    old = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".old", dir=target.parent))
    try:
        os.replace(target, old / "previous")
        try:
            os.replace(staging, target)
        except BaseException:
            os.replace(old / "previous", target)
            raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux ``renameat2``); False where that is unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):  # old kernel or filesystem
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove_abandoned(target: Path) -> None:
    """Delete staging folders of earlier exports to ``target`` whose process has died."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)\..+\.(tmp|old)")
    for path in target.parent.iterdir():
        match = pattern.fullmatch(path.name)
        if match and path.is_dir() and not _alive(int(match.group(1))):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def _disk_error(target: Path, exc: OSError) -> ExportError:
    where = Path(exc.filename) if exc.filename else target.parent
    fault = _DISK_FAULTS.get(exc.errno or 0, f"cannot be written ({exc.strerror})")
    folder = where if where.is_dir() else where.parent
    return ExportError(
        f"cannot write the export {target}: {folder} {fault}; nothing was changed there."
        " Free space, fix the rights, or choose another folder with --out"
    )


def _check_replaceable(target: Path) -> None:
    if not target.exists():
        return
    if not target.is_dir():
        raise ExportError(f"{target} exists and is not a folder; choose another --out")
    others = sorted(
        str(p.relative_to(target))
        for p in target.rglob("*")
        if p.is_file() and str(p.relative_to(target).as_posix()) not in EXPORT_FILES
    )
    if others:
        listed = ", ".join(others[:5]) + (" …" if len(others) > 5 else "")
        raise ExportError(
            f"{target} is not an earlier export (it holds {listed}); an export replaces the "
            "whole folder, so choose an empty or new folder with --out"
        )


def _fsync_dir(folder: Path) -> None:
    """Make the renames durable (directories cannot be fsync'ed on every platform)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
