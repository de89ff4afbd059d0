"""``labeler scan`` (find labelled figures in a book) and ``labeler add-items`` (accept them)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from labeler.cli._commands import project_command
from labeler.errors import LabelerError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``scan`` and ``add-items``."""
    p = sub.add_parser(
        "scan",
        help="list every labelled figure in a book",
        description="Find the labelled figures of a document: page, region, label lines, "
        "leader-line evidence and caption. Save them with --out and accept them with "
        "`labeler add-items DIR --from FILE`.",
    )
    p.add_argument("pdf", help="the book (PDF)")
    p.add_argument("--pages", type=_pages, help="pages to scan, e.g. 10-40 or 3,7,9 (default all)")
    p.add_argument("--out", help="save the candidates as JSON here")
    p.add_argument("--password", help="password of an encrypted PDF")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_scan)

    p = project_command(sub, "add-items", "add the figures a scan found (all, or --only some)")
    p.add_argument(
        "--from", dest="source", required=True, help="the JSON `labeler scan --out` wrote"
    )
    p.add_argument("--only", type=_numbers, help="candidate numbers to add, e.g. 1,4-6 (1-based)")
    p.add_argument("--password", help="password of an encrypted PDF")
    p.set_defaults(func=_add_items)


def _ranges(text: str) -> list[int]:
    numbers: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        start, end = int(first), int(last or first)
        if start < 1 or end < start:
            raise ValueError(part)
        numbers.extend(range(start, end + 1))
    return numbers


def _ranges_type(option: str, what: str, example: str) -> Callable[[str], list[int]]:
    """An argparse type for ``option``: numbers and ranges, or a message saying what it needs."""

    def parse(text: str) -> list[int]:
        try:
            return _ranges(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{option} needs {what} like {example}, not {text!r}"
            ) from None

    return parse


_pages = _ranges_type("--pages", "page numbers", "10-40 or 3,7,9 (1-based)")
_numbers = _ranges_type("--only", "candidate numbers", "1,4-6")


def _scan(args: argparse.Namespace) -> int:
    import sys

    from tqdm import tqdm

    from labeler.scan import scan_document, write_candidates

    with tqdm(total=None, unit="page", desc="scanning", file=sys.stderr, disable=args.quiet) as bar:

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        found = scan_document(args.pdf, pages=args.pages, password=args.password, on_page=progress)
    for n, c in enumerate(found, start=1):
        labels = "image, labels burned in" if c.labels is None else f"{c.labels} labels"
        leaders = "" if c.with_leaders is None else f", {c.with_leaders} with leader lines"
        clip = ",".join(f"{v:.0f}" for v in c.clip)
        caption = f"  {c.caption[:60]}" if c.caption else ""
        print(f"{n:>4}. page {c.page:<4} clip {clip:<20} {labels}{leaders}{caption}")
    print(f"{len(found)} labelled figure(s) found")
    if args.out:
        write_candidates(args.out, args.pdf, found)
        print(f"saved to {args.out}; accept them with: labeler add-items DIR --from {args.out}")
    return 0


def _add_items(args: argparse.Namespace) -> int:
    from labeler.scan import Outcome, add_candidates, read_candidates
    from labeler.store import Project

    pdf, found = read_candidates(args.source)
    chosen = args.only or list(range(1, len(found) + 1))
    if any(n > len(found) for n in chosen):
        raise LabelerError(f"the scan has {len(found)} candidates; --only asked for {max(chosen)}")
    number = {id(found[n - 1]): n for n in chosen}

    def report(outcome: Outcome) -> None:
        n, page = number[id(outcome.candidate)], outcome.candidate.page
        if outcome.item_id:
            print(f"{n:>4}. page {page}: item {outcome.item_id}")
        elif outcome.duplicate_of:
            print(f"{n:>4}. page {page}: already item {outcome.duplicate_of}, skipped")
        else:
            print(f"{n:>4}. page {page}: not added: {outcome.error}")

    with Project.open(args.dir) as project:
        outcomes = add_candidates(
            project, pdf, [found[n - 1] for n in chosen], password=args.password, on_each=report
        )
    added = sum(1 for o in outcomes if o.item_id)
    skipped = sum(1 for o in outcomes if o.duplicate_of)
    failed = len(outcomes) - added - skipped
    print(f"{added} added, {skipped} already items, {failed} failed")
    return 1 if failed else 0
