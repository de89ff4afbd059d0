"""Per-user GUI settings (window state, recent projects, theme, shortcuts).

All of them live in one INI-format ``QSettings`` so a curator can read or
delete the file, and tests can point Qt at a temporary folder with
``QSettings.setPath``. Screenshots use :func:`scratch_settings`, so they show
the default layout and never touch the user's file.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QSettings

ORGANIZATION = "Labeler"
APPLICATION = "Labeler"
MAX_RECENT = 8

_scratch_file: Path | None = None


def app_settings() -> QSettings:
    """The settings store every GUI part reads and writes."""
    if _scratch_file is not None:
        return QSettings(str(_scratch_file), QSettings.Format.IniFormat)
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )


@contextlib.contextmanager
def scratch_settings() -> Iterator[None]:
    """Inside, settings start empty and are thrown away afterwards."""
    global _scratch_file
    previous = _scratch_file
    with tempfile.TemporaryDirectory(prefix="labeler-settings-") as folder:
        _scratch_file = Path(folder) / "Labeler.ini"
        try:
            yield
        finally:
            _scratch_file = previous


def recent_projects() -> list[str]:
    """Recently opened project folders, newest first, only those that still exist."""
    value = app_settings().value("recent/projects", [])
    paths = [value] if isinstance(value, str) else list(value or [])
    return [p for p in paths if Path(p).is_dir()]


def remember_project(folder: str | Path) -> None:
    """Put ``folder`` at the top of the recent list."""
    path = str(Path(folder).resolve())
    paths = [path] + [p for p in recent_projects() if p != path]
    app_settings().setValue("recent/projects", paths[:MAX_RECENT])


def reviewer_name() -> str:
    """The reviewer's name every decision is recorded under ('' until the curator types it)."""
    return str(app_settings().value("review/reviewer", "") or "")


def set_reviewer_name(name: str) -> None:
    """Remember the reviewer's name (one line, spaces tidied)."""
    app_settings().setValue("review/reviewer", " ".join(name.split()))
