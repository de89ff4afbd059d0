"""A Labeler project: a folder holding ``project.sqlite`` and ``assets/``.

A team's project keeps its database in PostgreSQL instead: the folder (shared by the team)
holds ``assets/`` and ``project.toml``, which names the database URL — never a password,
which stays in each user's ``~/.pgpass`` or ``PGPASSWORD`` (decision 0023).

The :class:`Project` is the one API the CLI, the GUI and the runner use to read
and change a project. Its tables are grouped by job (``project.sources``,
``project.items``, ``project.lexicon``, ``project.responses``,
``project.public_ids``, ``project.reviews``); every write is
one transaction. A ``Project`` belongs to one thread — a worker thread opens
its own with :meth:`Project.open` (SQLite in WAL mode lets them share the file).
"""

from __future__ import annotations

import json
import secrets
import tomllib
from contextlib import AbstractContextManager
from pathlib import Path

from labeler.atomic import write_text
from labeler.errors import ProjectError
from labeler.store.assets import AssetStore
from labeler.store.audit_cache import AuditCacheTable
from labeler.store.batches import BatchTable
from labeler.store.checks import ResidualCheckTable
from labeler.store.claims import ClaimTable
from labeler.store.database import Connection, connect, connect_postgres, transaction
from labeler.store.items import ItemTable, SourceTable
from labeler.store.lexicon_rows import LexiconTable
from labeler.store.postgres import PgConnection, check_url
from labeler.store.public_ids import PublicIdTable
from labeler.store.responses import ResponseTable
from labeler.store.reviews import ReviewTable
from labeler.store.score_cache import ScoreCacheTable
from labeler.store.slot_orders import SlotOrderTable

DB_NAME = "project.sqlite"
POINTER_NAME = "project.toml"
ASSETS = "assets"


def is_project(folder: str | Path) -> bool:
    """Whether ``folder`` is a Labeler project (an SQLite file or a database pointer)."""
    folder = Path(folder)
    return (folder / DB_NAME).is_file() or (folder / POINTER_NAME).is_file()


def database_url(folder: Path) -> str | None:
    """The PostgreSQL URL ``folder``'s ``project.toml`` names, or None (an SQLite project)."""
    pointer = folder / POINTER_NAME
    if not pointer.is_file():
        return None
    try:
        url = tomllib.loads(pointer.read_text(encoding="utf-8"))["database"]["url"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise ProjectError(
            f"{pointer} does not name a database ({exc}); it needs [database] url = "
            '"postgresql://host/dbname"'
        ) from None
    return check_url(str(url))


def write_pointer(folder: Path, url: str) -> None:
    """Write ``project.toml`` naming ``url`` (atomic; a TOML basic string is JSON-quoted)."""
    write_text(
        folder / POINTER_NAME,
        "# A Labeler project whose database is PostgreSQL; its assets are in this folder.\n"
        "# No password here: give it in ~/.pgpass or PGPASSWORD.\n"
        f"[database]\nurl = {json.dumps(check_url(url))}\n",
    )


def open_database(folder: Path) -> Connection:
    """The folder's database, SQLite or PostgreSQL, migrated to this Labeler's schema."""
    url = database_url(folder)
    return connect(folder / DB_NAME) if url is None else connect_postgres(url)


class Project:
    """An open project folder."""

    def __init__(self, folder: Path, db: Connection) -> None:
        self.folder = folder
        self.db = db
        self.assets = AssetStore(folder / ASSETS)
        self.sources = SourceTable(db, self.assets)
        self.items = ItemTable(db, self.assets)
        self.lexicon = LexiconTable(db)
        self.responses = ResponseTable(db)
        self.public_ids = PublicIdTable(db)
        self.residual_checks = ResidualCheckTable(db)
        self.reviews = ReviewTable(db)
        self.batches = BatchTable(db)
        self.claims = ClaimTable(db)
        self.score_cache = ScoreCacheTable(db)
        self.audit_cache = AuditCacheTable(db)
        self.slot_orders = SlotOrderTable(db)

    # -- lifecycle ---------------------------------------------------------

    @classmethod
    def create(
        cls,
        folder: str | Path,
        name: str | None = None,
        id_prefix: str = "ITEM",
        db_url: str | None = None,
    ) -> Project:
        """Create a new project in ``folder`` (which may exist but must not be a project).

        With ``db_url`` (``postgresql://…``) the database is that empty PostgreSQL database
        and the folder keeps the assets and a ``project.toml`` pointing at it.
        """
        folder = Path(folder)
        if is_project(folder):
            raise ProjectError(f"{folder} is already a Labeler project")
        if folder.exists() and not folder.is_dir():
            raise ProjectError(f"{folder} exists and is not a folder")
        if db_url is not None:
            db: Connection = new_postgres_database(db_url)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ASSETS).mkdir(exist_ok=True)
        if db_url is None:
            db = connect(folder / DB_NAME)
        else:
            write_pointer(folder, db_url)
        project = cls(folder, db)
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
        if not is_project(folder):
            raise ProjectError(
                f"{folder} is not a Labeler project (no {DB_NAME} or {POINTER_NAME}); create one "
                f"with `labeler init {folder}`"
            )
        return cls(folder, open_database(folder))

    @property
    def database_url(self) -> str | None:
        """The PostgreSQL URL of a team project; None for a folder's own SQLite file."""
        return self.db.url if isinstance(self.db, PgConnection) else None

    def close(self) -> None:
        """Close the database connection."""
        self.db.close()

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> AbstractContextManager[Connection]:
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


def new_postgres_database(url: str) -> PgConnection:
    """Connect to ``url`` for a new project: the database must be empty and sort bytewise.

    A database already holding a project is refused (two projects in one database would mix);
    one that does not sort text by code point (collation ``C``) is refused because text would
    sort differently from the SQLite store and exports would change order between the two.
    """
    db = PgConnection(url)
    try:
        if db.tables():
            raise ProjectError(
                f"the database {url} is not empty; give a new database for the project "
                "(createdb --locale=C --template=template0 NAME)"
            )
        probe = ["a", "B", "z", "é", "Z", "_"]
        order = [
            r[0]
            for r in db.execute(
                "SELECT s FROM (VALUES (?), (?), (?), (?), (?), (?)) AS v(s) ORDER BY s", probe
            )
        ]
        if order != sorted(probe):
            raise ProjectError(
                f"the database {url} sorts text by a language's rules ({''.join(order)}); "
                "Labeler needs code-point order (C) so that a project sorts the same on SQLite "
                "and PostgreSQL: create it with createdb --locale=C --template=template0 NAME"
            )
    except BaseException:
        db.close()
        raise
    db.close()
    return connect_postgres(url)
