"""Export and import commands: ``labeler export``, ``import-items``, ``import-results``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from labeler.store import Project


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the export and import commands."""
    p = sub.add_parser(
        "export",
        help="write items.jsonl, results.jsonl and the dataset card",
        description="Export a project for publication (items marked excluded are left out).",
    )
    p.add_argument("dir", help="the project folder")
    p.add_argument("--out", help="export folder (default: exports/<project-name>/)")
    p.add_argument(
        "--private",
        action="store_true",
        help="also write provenance.jsonl (public ID -> source, page, clip); never publish it",
    )
    p.add_argument("--only-ready", action="store_true", help="export only items marked ready")
    p.add_argument(
        "--with-images",
        action="store_true",
        help="also write each item's question and answer images (config `items`, parquet); "
        "only items whose source has a redistributable licence (`labeler sources licence`)",
    )
    p.add_argument(
        "--skip-unlicensed",
        action="store_true",
        help="with --with-images: leave out items whose source may not be redistributed "
        "instead of refusing the export",
    )
    p.add_argument(
        "--include-slots",
        action="store_true",
        help="also publish answers under the slot conditions (slots, slots-no-image) as extra "
        "rows with a slot_accuracy field; without it the export is exactly the card's schema",
    )
    p.add_argument("--pretty-name", help="the dataset's display name (remembered by the project)")
    p.add_argument("--license", help="the card's license id, e.g. cc-by-4.0 (remembered)")
    p.add_argument(
        "--cite-author",
        action="append",
        metavar="NAME",
        help="an author of the card's citation, once per author (remembered)",
    )
    p.add_argument("--cite-year", help="the citation's year (default: of the newest answer)")
    p.add_argument("--cite-url", help="where the dataset is published (remembered)")
    p.set_defaults(func=_export)

    p = sub.add_parser(
        "import-items",
        help="create items from a published items.jsonl",
        description="Create items (subject, key, synonyms) from a published items.jsonl, keeping "
        "their public IDs, so published results can be imported and reviewed.",
    )
    p.add_argument("dir", help="the project folder (its ID prefix must match the file's)")
    p.add_argument("items", help="the items.jsonl file")
    p.set_defaults(func=_import_items)

    p = sub.add_parser(
        "import-results",
        help="attach published results.jsonl rows to items by public ID",
        description="Store published answers as responses (origin 'import') on the items "
        "with those public IDs; rows for unknown items are reported.",
    )
    p.add_argument("dir", help="the project folder")
    p.add_argument("results", help="the results.jsonl file")
    p.add_argument(
        "--skip-unknown",
        action="store_true",
        help="import the rows of known items even if some items are unknown",
    )
    p.set_defaults(func=_import_results)


def _export(args: argparse.Namespace) -> int:
    from labeler.errors import LabelerError
    from labeler.export.exporter import ImageOptions, export_project, report_lines
    from labeler.store import Project

    if args.skip_unlicensed and not args.with_images:
        raise LabelerError("--skip-unlicensed only applies with --with-images")
    images = ImageOptions(skip_unlicensed=args.skip_unlicensed) if args.with_images else None

    with Project.open(args.dir) as project:
        for key in ("pretty_name", "license", "cite_year", "cite_url"):
            value = getattr(args, key)
            if value is not None:
                project.set_meta(key, _one_line(value, f"--{key.replace('_', '-')}"))
        if args.cite_author:
            authors = [_one_line(a, "--cite-author") for a in args.cite_author]
            project.set_meta("cite_authors", " and ".join(authors))
        _warn_before_export(project, args.only_ready)
        report = export_project(
            project,
            args.out,
            private=args.private,
            only_ready=args.only_ready,
            images=images,
            include_slots=args.include_slots,
        )
    print("\n".join(report_lines(report)))
    return 0


def _warn_before_export(project: Project, only_ready: bool) -> None:
    """Say what a curator may not mean to publish: drafts, and a licence nobody chose."""
    from labeler.export.card import DEFAULT_LICENSE

    if not only_ready:
        drafts = len(project.items.list(status="draft"))
        if drafts:
            print(
                f"warning: exporting {drafts} draft item(s) not yet marked ready; "
                "add --only-ready to leave them out",
                file=sys.stderr,
            )
    if project.get_meta("license") is None:
        print(
            f"warning: no licence chosen, so the card says {DEFAULT_LICENSE}; "
            "choose one with --license (e.g. cc-by-4.0), it is remembered",
            file=sys.stderr,
        )


def _one_line(value: str, option: str) -> str:
    from labeler.errors import LabelerError

    value = value.strip()
    if not value or "\n" in value:
        raise LabelerError(f"{option} must be one non-empty line")
    return value


def _import_items(args: argparse.Namespace) -> int:
    from labeler.export.importer import import_items
    from labeler.store import Project

    with Project.open(args.dir) as project:
        report = import_items(project, args.items)
    print(f"created {len(report.created)} item(s)")
    if report.already_present:
        print(f"  {len(report.already_present)} already in the project, left unchanged")
    return 0


def _import_results(args: argparse.Namespace) -> int:
    from labeler.export.importer import import_results, listed
    from labeler.store import Project

    with Project.open(args.dir) as project:
        report = import_results(project, args.results, skip_unknown=args.skip_unknown)
    print(f"imported {report.imported} response(s), {report.unchanged} already present")
    if report.unknown_items:
        print(
            f"  skipped {report.skipped_rows} row(s) for {len(report.unknown_items)} unknown "
            f"item(s): {listed(report.unknown_items)}"
        )
    if report.key_differs:
        print(f"  answer key differs from the published one: {listed(report.key_differs)}")
    if report.score_differs:
        print(f"  {report.score_differs} row(s) score differently with this project's lexicon")
    return 0
