"""A Labeler project: a folder holding ``project.sqlite`` and ``assets/``.

The :class:`Project` is the one API the CLI, the GUI and the runner use to read
and change a project. Its tables are grouped by job (``project.sources``,
``project.items``, ``project.lexicon``, ``project.responses``,
``project.public_ids``); every write is
one transaction. A ``Project`` belongs to one thread — a worker thread opens
its own with :meth:`Project.open` (SQLite in WAL mode lets them share the file).
"""

from __future__ import annotations

import secrets
import sqlite3
from contextlib import AbstractContextManager
from pathlib import Path

from labeler.errors import ProjectError
from labeler.store.assets import AssetStore
from labeler.store.checks import ResidualCheckTable
from labeler.store.database import connect, transaction
from labeler.store.items import ItemTable, SourceTable
from labeler.store.lexicon_rows import LexiconTable
from labeler.store.public_ids import PublicIdTable
from labeler.store.responses import ResponseTable
from labeler.store.slot_orders import SlotOrderTable

DB_NAME = "project.sqlite"
ASSETS = "assets"


class Project:
    """An open project folder."""

    def __init__(self, folder: Path, db: sqlite3.Connection) -> None:
        self.folder = folder
        self.db = db
        self.assets = AssetStore(folder / ASSETS)
        self.sources = SourceTable(db, self.assets)
        self.items = ItemTable(db, self.assets)
        self.lexicon = LexiconTable(db)
        self.responses = ResponseTable(db)
        self.public_ids = PublicIdTable(db)
        self.residual_checks = ResidualCheckTable(db)
        self.slot_orders = SlotOrderTable(db)

    # -- lifecycle ---------------------------------------------------------

    @classmethod
    def create(
        cls, folder: str | Path, name: str | None = None, id_prefix: str = "ITEM"
    ) -> Project:
        """Create a new project in ``folder`` (which may exist but must not be a project)."""
        folder = Path(folder)
        if (folder / DB_NAME).exists():
            raise ProjectError(f"{folder} is already a Labeler project")
        if folder.exists() and not folder.is_dir():
            raise ProjectError(f"{folder} exists and is not a folder")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ASSETS).mkdir(exist_ok=True)
        project = cls(folder, connect(folder / DB_NAME))
        with project.transaction():
            project.set_meta("name", name or folder.resolve().name)
            project.set_meta("id_prefix", _check_prefix(id_prefix))
            # The salt orders public IDs; it never leaves the project.
            project.set_meta("id_salt", secrets.token_hex(16))
        return project

    @classmethod
    def open(cls, folder: str | Path) -> Project:
        """Open an existing project, migrating its schema if it is older."""
        folder = Path(folder)
        if not (folder / DB_NAME).is_file():
            raise ProjectError(
                f"{folder} is not a Labeler project (no {DB_NAME}); create one with "
                f"`labeler init {folder}`"
            )
        return cls(folder, connect(folder / DB_NAME))

    def close(self) -> None:
        """Close the database connection."""
        self.db.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """``with project.transaction():`` groups writes into one atomic unit."""
        return transaction(self.db)

    # -- metadata ----------------------------------------------------------

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        """A project setting (name, id prefix …)."""
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row["value"] if row else default

    def set_meta(self, key: str, value: str) -> None:
        """Set a project setting."""
        with self.transaction():
            self.db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    @property
    def name(self) -> str:
        """The project's display name."""
        return self.get_meta("name") or self.folder.name

    @property
    def id_prefix(self) -> str:
        """The prefix of public item IDs (``PREFIX-N``)."""
        return self.get_meta("id_prefix") or "ITEM"

    @id_prefix.setter
    def id_prefix(self, value: str) -> None:
        self.set_meta("id_prefix", _check_prefix(value))


def _check_prefix(prefix: str) -> str:
    if not prefix or not prefix.replace("_", "").isalnum() or not prefix.isascii():
        raise ProjectError(f"public ID prefix must be letters/digits, got {prefix!r}")
    return prefix.upper()
