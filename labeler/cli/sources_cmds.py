"""``labeler sources``: the documents a project's items were cut from, and relinking moved ones."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler sources list|relink``."""
    sources = sub.add_parser("sources", help="list source documents, relink moved ones")
    commands = sources.add_subparsers(dest="sources_command", required=True, metavar="COMMAND")

    p = commands.add_parser("list", help="every source: where it is, whether a copy is kept")
    p.add_argument("dir", help="the project folder")
    p.set_defaults(func=_list)

    p = commands.add_parser(
        "relink",
        help="point sources at moved or renamed files (matched by their bytes)",
        description="Each FILE is matched to the source with exactly the same bytes (sha256), "
        "whatever its name, and that source's path is updated.",
    )
    p.add_argument("dir", help="the project folder")
    p.add_argument("files", nargs="+", help="the documents at their new places")
    p.set_defaults(func=_relink)


def _list(args: argparse.Namespace) -> int:
    from pathlib import Path

    from labeler.store import Project

    with Project.open(args.dir) as project:
        for source in project.sources.all():
            here = "found" if Path(source.path).is_file() else "MISSING"
            copy = "copy kept" if source.copy_asset else "no copy"
            print(f"{source.id}: {source.path} ({here}, {copy}) sha256 {source.sha256[:12]}…")
    return 0


def _relink(args: argparse.Namespace) -> int:
    from labeler.store import Project

    with Project.open(args.dir) as project:
        for file in args.files:
            source = project.sources.relink(file)
            print(f"source {source.id} -> {source.path}")
    return 0
