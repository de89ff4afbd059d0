"""Project commands: ``labeler init``."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the project commands."""
    p = sub.add_parser("init", help="create a project folder")
    p.add_argument("dir", help="the project folder to create")
    p.add_argument("--name", help="display name (default: the folder's name)")
    p.add_argument("--id-prefix", default="ITEM", help="prefix of public item IDs (PREFIX-N)")
    p.set_defaults(func=_init)


def _init(args: argparse.Namespace) -> int:
    from labeler.store import Project

    with Project.create(args.dir, name=args.name, id_prefix=args.id_prefix) as project:
        print(f"created project {project.name!r} in {project.folder}")
    return 0
