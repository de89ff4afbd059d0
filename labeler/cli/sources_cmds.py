"""``labeler sources``: the documents a project's items were cut from, and relinking moved ones."""

from __future__ import annotations

import argparse

from labeler.cli._commands import command_group, project_command


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler sources list|relink|licence``."""
    commands = command_group(sub, "sources", "list source documents, relink moved ones")

    p = project_command(commands, "list", "every source: where it is, whether a copy is kept")
    p.set_defaults(func=_list)

    p = project_command(
        commands,
        "relink",
        "point sources at moved or renamed files (matched by their bytes)",
        description="Each FILE is matched to the source with exactly the same bytes (sha256), "
        "whatever its name, and that source's path is updated.",
    )
    p.add_argument("files", nargs="+", help="the documents at their new places")
    p.set_defaults(func=_relink)

    p = project_command(
        commands,
        "licence",
        "set a source's licence and attribution (what an export with images may carry)",
        description="Only sources under a redistributable licence have their images written by "
        "`labeler export --with-images`; the attribution line goes into the dataset card.",
    )
    p.add_argument("source_id", type=int, help="the source's id, as `labeler sources list` shows")
    add_licence_options(p, required=True)
    p.set_defaults(func=_licence)


def add_licence_options(p: argparse.ArgumentParser, *, required: bool) -> None:
    """``--licence`` and ``--attribution``, shared with ``labeler add-item``."""
    from labeler.store.records import LICENCES

    p.add_argument("--licence", choices=LICENCES, required=required, help="the source's licence")
    p.add_argument(
        "--attribution",
        default="",
        help='the credit line the licence asks for, e.g. ""Bone cross-section" by Pbroks13, '
        'CC BY 3.0, via Wikimedia Commons"',
    )


def _list(args: argparse.Namespace) -> int:
    from pathlib import Path

    from labeler.store import Project

    with Project.open(args.dir) as project:
        for source in project.sources.all():
            here = "found" if Path(source.path).is_file() else "MISSING"
            copy = "copy kept" if source.copy_asset else "no copy"
            print(f"{source.id}: {source.path} ({here}, {copy}) sha256 {source.sha256[:12]}…")
            credit = f": {source.attribution}" if source.attribution else ""
            print(f"    licence {source.licence}{credit}")
    return 0


def _relink(args: argparse.Namespace) -> int:
    from labeler.store import Project

    with Project.open(args.dir) as project:
        for file in args.files:
            source = project.sources.relink(file)
            print(f"source {source.id} -> {source.path}")
    return 0


def _licence(args: argparse.Namespace) -> int:
    from labeler.store import Project

    with Project.open(args.dir) as project:
        source = project.sources.set_licence(args.source_id, args.licence, args.attribution)
    credit = f" ({source.attribution})" if source.attribution else ""
    print(f"source {source.id}: licence {source.licence}{credit}")
    return 0
