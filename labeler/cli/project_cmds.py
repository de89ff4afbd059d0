"""Project commands: ``labeler init`` and ``labeler add-item``."""

from __future__ import annotations

import argparse

from labeler.cli._args import clip, positive_int
from labeler.cli._commands import project_command
from labeler.cli.sources_cmds import add_licence_options


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the project commands."""
    p = sub.add_parser("init", help="create a project folder")
    p.add_argument("dir", help="the project folder to create")
    p.add_argument("--name", help="display name (default: the folder's name)")
    p.add_argument("--id-prefix", default="ITEM", help="prefix of public item IDs (PREFIX-N)")
    p.add_argument(
        "--no-starter-lexicon",
        dest="starter_lexicon",
        action="store_false",
        help="start with an empty lexicon instead of the starter biology lexicon",
    )
    p.add_argument(
        "--db",
        metavar="URL",
        help="keep the database in this empty PostgreSQL database (postgresql://host/dbname, "
        "no password: use ~/.pgpass or PGPASSWORD); the folder keeps the assets",
    )
    p.set_defaults(func=_init)

    p = project_command(sub, "add-item", "erase a figure region, harvest its key, store it")
    p.add_argument("--pdf", required=True, help="source document (PDF, SVG, PNG or JPEG)")
    p.add_argument("--page", type=positive_int, required=True, help="page number, 1-based")
    p.add_argument(
        "--clip",
        type=clip,
        help="X0,Y0,X1,Y1 in PDF points (default: the page's best proposed figure region)",
    )
    p.add_argument("--subject", default="", help="short factual description of the diagram")
    p.add_argument("--tier", default="extended", choices=("core", "extended"))
    p.add_argument("--pattern", choices=("A", "B", "C"), help="default: C with markers, else B")
    p.add_argument("--dpi", type=positive_int, default=200, help="render resolution (default 200)")
    p.add_argument("--password", help="password of an encrypted PDF")
    p.add_argument(
        "--allow-duplicate",
        action="store_true",
        help="add the figure even if the same page region is already an item",
    )
    p.add_argument("--json", action="store_true", help="print the whole stored item as JSON")
    p.add_argument(
        "--no-source-copy",
        dest="keep_source_copy",
        action="store_false",
        help="do not keep a copy of the document in the project (huge files)",
    )
    add_licence_options(p, required=False)
    p.set_defaults(func=_add_item)


def _init(args: argparse.Namespace) -> int:
    from labeler.lexicon_project import create_project

    with create_project(
        args.dir,
        name=args.name,
        id_prefix=args.id_prefix,
        starter=args.starter_lexicon,
        db_url=args.db,
    ) as project:
        rows = len(project.lexicon.rows())
        where = f" (database {project.database_url})" if project.database_url else ""
        print(f"created project {project.name!r} in {project.folder}{where} ({rows} lexicon rows)")
    return 0


def _add_item(args: argparse.Namespace) -> int:
    import json
    import sys

    from labeler.curation import add_item_from_document, item_as_json, item_warnings
    from labeler.store import NewItem, Project
    from labeler.store.items import check_licence

    if args.licence is not None:
        check_licence(args.licence, args.attribution)  # refused before anything is stored
    with Project.open(args.dir) as project:
        item = add_item_from_document(
            project,
            args.pdf,
            args.page,
            args.clip,
            item=NewItem(subject=args.subject, tier=args.tier, pattern=args.pattern, dpi=args.dpi),
            password=args.password,
            allow_duplicate=args.allow_duplicate,
            keep_source_copy=args.keep_source_copy,
        )
        if args.licence is not None and item.source_id is not None:
            project.sources.set_licence(item.source_id, args.licence, args.attribution)
        if args.json:
            print(json.dumps(item_as_json(project, item), indent=2))
        else:
            names = [e.name or f"[{e.marker}]" for e in project.items.key(item.id)]
            clip = ",".join(f"{v:.0f}" for v in item.clip or ())
            print(
                f"{item.id}: {len(names)} labels ({item.erase_method}), page {item.page} clip "
                f"{clip} -> {', '.join(names) or 'no key yet'}"
            )
        for warning in item_warnings(project, item):
            print(f"labeler: warning: {args.pdf}: {warning}", file=sys.stderr)
    return 0
