"""Per-user GUI settings (window state, recent projects, theme, shortcuts).

All of them live in one INI-format ``QSettings`` so a curator can read or
delete the file, and tests can point Qt at a temporary folder with
``QSettings.setPath``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

ORGANIZATION = "Labeler"
APPLICATION = "Labeler"
MAX_RECENT = 8


def app_settings() -> QSettings:
    """The settings store every GUI part reads and writes."""
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION
    )


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
