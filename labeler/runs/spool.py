"""Answers that were paid for but could not be stored are kept in a spool, never lost.

When SQLite refuses a write during a run (the disk is full, another program held the
database locked past the busy timeout, the folder turned read-only), the answer that
just arrived is written as one JSON file into ``<project>/spool/`` (atomically: temp
file + rename, so a crash leaves the whole answer or nothing), and the run stops
sending new calls. The next run (:func:`replay`, called when a run is planned) stores
the spooled answers first, so the cells they answer are skipped, not asked (and paid
for) again. A spooled file is removed only after its row is committed; replaying a file
whose row already exists (a crash between commit and unlink) stores nothing twice.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import uuid
from pathlib import Path

from labeler.atomic import write_bytes, write_text
from labeler.errors import LabelerError
from labeler.store import Project
from labeler.store.records import NewResponse
from labeler.usage import Usage

SPOOL = "spool"
# Space set aside in the spool when a run starts and given back when the disk fills up, so
# that the answers arriving after SQLite reports "database or disk is full" still fit.
RESERVE = ".reserve"
RESERVE_BYTES = 512 * 1024


class StoreWriteFailed(LabelerError):
    """The project refused to store a response; the answer itself was spooled."""


def spool_folder(project: Project) -> Path:
    """Where unstorable answers of ``project`` wait for the next run."""
    return project.folder / SPOOL


def reserve(project: Project) -> None:
    """Set aside :data:`RESERVE_BYTES` in the spool (once) for answers a full disk refuses."""
    path = spool_folder(project) / RESERVE
    if path.exists():
        return
    # already short of space: the run's own writes will say so clearly
    with contextlib.suppress(OSError):
        write_bytes(path, b"\0" * RESERVE_BYTES)


def keep(project: Project, response: NewResponse, exc: sqlite3.Error) -> StoreWriteFailed:
    """Spool ``response`` after the store raised ``exc``; the error to raise, saying why."""
    folder = spool_folder(project)
    (folder / RESERVE).unlink(missing_ok=True)  # give the set-aside space to the answers
    name = f"{response.request_hash[:16]}-{uuid.uuid4().hex[:12]}.json"
    try:
        write_text(folder / name, json.dumps(dataclasses.asdict(response), ensure_ascii=False))
    except OSError as spool_exc:
        return StoreWriteFailed(
            f"{store_problem(project, exc)}; the answer that just arrived could not be kept"
            f" either ({spool_exc.strerror} writing {folder}), so that one call is lost"
        )
    return StoreWriteFailed(
        f"{store_problem(project, exc)}. The run stopped sending; answers already received"
        f" are kept in {folder} and are stored (not asked again) the next time you run"
    )


def store_problem(project: Project, exc: sqlite3.Error) -> str:
    """What a SQLite failure means for the curator, and what to do about it."""
    where = project.database_url or project.folder / "project.sqlite"
    text = str(exc).lower()
    if "full" in text:
        return f"{where}: the disk is full; free some space"
    if "locked" in text or "busy" in text:
        return (
            f"{where}: the database stayed locked by another program (another run, an import"
            " or a GUI writing); let it finish or close it"
        )
    if "readonly" in text or "read-only" in text:
        return f"{where}: the project folder is read-only; make it writable"
    return f"{where}: the database refused a write ({exc}); check the disk"


def replay(project: Project) -> int:
    """Store every spooled answer of ``project`` (oldest first); returns how many were stored.

    A file that is not a spooled response (edited by hand, from a newer Labeler) is left
    where it is and named in a clear error, so no answer is silently dropped; an answer
    whose item was deleted meanwhile is renamed ``*.orphan`` and left in the spool.
    """
    folder = spool_folder(project)
    if not folder.is_dir():
        return 0
    stored = 0
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns):
        response = _load(path)
        if not _already_stored(project, response):
            try:
                project.responses.record(response)
            except sqlite3.IntegrityError:  # its item was deleted meanwhile: keep it aside
                path.rename(path.with_suffix(".orphan"))
                continue
            except sqlite3.Error as exc:
                raise StoreWriteFailed(
                    f"{store_problem(project, exc)}; {len(list(folder.glob('*.json')))} spooled"
                    f" answers stay in {folder} until the next run"
                ) from exc
            stored += 1
        path.unlink()
    return stored


def _load(path: Path) -> NewResponse:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if "usage" in data:  # kept as an object of token counts
            data["usage"] = Usage(**data["usage"])
        return NewResponse(**data)
    except (OSError, UnicodeDecodeError, ValueError, TypeError) as exc:
        raise StoreWriteFailed(
            f"{path}: not a spooled answer Labeler can read ({exc}); move it out of"
            f" {path.parent} to continue"
        ) from None


def _already_stored(project: Project, response: NewResponse) -> bool:
    return any(
        r.request_hash == response.request_hash
        and r.run_id == response.run_id
        and r.raw_text == response.raw_text
        and r.status == response.status
        for r in project.responses.history(response.item_id, response.model, response.condition)
    )
