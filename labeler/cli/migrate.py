"""``labeler migrate DIR --to postgresql://…`` (and ``--to sqlite`` back): move a project's
database between the embedded SQLite file and a team's PostgreSQL server."""

from __future__ import annotations

import argparse

from labeler.cli._commands import project_command


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler migrate``."""
    p = project_command(
        sub,
        "migrate",
        "move a project's database to PostgreSQL (--to URL) or back (--to sqlite)",
        description="Copy every row into the new database, then point the folder at it; the "
        "old database is kept (project.sqlite.migrated / project.toml.migrated). The assets "
        "stay in the folder.",
    )
    p.add_argument(
        "--to",
        required=True,
        metavar="URL|sqlite",
        help="an empty PostgreSQL database (postgresql://host/dbname, no password in it: use "
        "~/.pgpass or PGPASSWORD), or 'sqlite' for the folder's own project.sqlite",
    )
    p.set_defaults(func=_migrate)


def _migrate(args: argparse.Namespace) -> int:
    from labeler.store.transfer import to_postgres, to_sqlite

    if args.to == "sqlite":
        copied = to_sqlite(args.dir)
        where = "project.sqlite"
    else:
        copied = to_postgres(args.dir, args.to)
        where = args.to
    rows = sum(copied.values())
    print(f"copied {rows} rows in {len(copied)} tables; {args.dir} now uses {where}")
    return 0
