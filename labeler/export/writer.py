"""Writing an export folder all at once.

Every file is written into a temporary folder beside the target (same
filesystem), fsync'ed, and then swapped in with renames. Readers see the old
export or the new one, and an export that fails before the swap leaves the
target untouched. Because the swap replaces the whole folder, the target must
be empty or an earlier export: anything else in it would be lost, so it is
refused instead.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from labeler.errors import ExportError
from labeler.export.schema import EXPORT_FILES


def write_export(target: str | os.PathLike[str], files: Mapping[str, bytes]) -> Path:
    """Replace ``target`` with a folder holding exactly ``files`` (relative path -> bytes)."""
    target = Path(target)
    _check_replaceable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    old: Path | None = None
    try:
        for relative, data in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        if target.exists():
            old = Path(
                tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent)
            )
            os.replace(target, old / "previous")
        os.replace(staging, target)
    except BaseException:
        if old is not None and not target.exists():
            os.replace(old / "previous", target)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    _fsync_dir(target.parent)
    return target


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
