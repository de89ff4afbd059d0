"""Item commands: ``labeler items show`` and ``labeler items edit-key``.

What a curator does to a key in Curate's key editor, from the command line:
rename an entry, set or change its alternatives (other names printed with it,
scored as the same part) and its note (printed text that is not a name), or
tidy a typed name the way harvest splits printed labels.

``edit-key`` and ``set-status`` write at the item's version (decision 0023): the one
they read, or ``--expected-version`` (what ``items show`` printed, e.g. in a script
that checked the item first). If someone changed the item in between, nothing is
written and the command exits with :data:`EXIT_CONFLICT`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from labeler.cli._commands import command_group, find_item, item_command, project_command

if TYPE_CHECKING:
    from labeler.store import Item, Project

#: The exit code of an edit refused because the item changed since it was read (2 is any
#: other user error): a script can tell "read again and retry" from "fix the command".
EXIT_CONFLICT = 4
EXPECTED_HELP = (
    "refuse the change (exit code 4) unless the item is still at this version "
    "(`items show` prints it; default: the version this command reads)"
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler items`` with its sub-commands."""
    commands = command_group(sub, "items", "show an item and edit its answer key")

    p = project_command(commands, "list", "the project's items, one line each")
    p.add_argument("--status", choices=("draft", "ready", "excluded"), help="only this status")
    p.add_argument("--search", default="", help="only items whose subject, notes or id has this")
    p.set_defaults(func=_list)

    p = item_command(commands, "show", "an item's fields and its key")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=_show)

    p = item_command(
        commands,
        "edit-key",
        "change one key entry's name, alternatives or note",
        description="Change one entry of an item's answer key. Alternatives are other names "
        "of the part printed with it (answers using them score as correct); the note is "
        "printed text that is not a name. Separate several alternatives with ';'.",
    )
    p.add_argument("entry", help="which entry: its number (1-based), its name or its marker")
    p.add_argument("--name", help="the new name")
    p.add_argument("--alternatives", help="replace the alternatives ('a; b'; '' for none)")
    p.add_argument("--add-alternative", action="append", default=[], metavar="NAME", help="add one")
    p.add_argument(
        "--remove-alternative", action="append", default=[], metavar="NAME", help="remove one"
    )
    p.add_argument("--note", help="the new note ('' for none)")
    p.add_argument(
        "--tidy",
        action="store_true",
        help="read alternatives and a note out of the name as harvest does "
        "('Aorta (cut)' -> Aorta, note cut); applied after --name",
    )
    p.add_argument("--json", action="store_true", help="print the item as JSON afterwards")
    p.add_argument("--expected-version", type=int, metavar="N", help=EXPECTED_HELP)
    p.set_defaults(func=_edit_key)

    p = item_command(
        commands,
        "set-status",
        "mark an item draft, ready or excluded",
        description="Change an item's status. Marking it ready reads its question back first: "
        "if key text is still readable it stays as it is, unless --accept says why that is fine "
        "(recorded with your login name and the time).",
    )
    p.add_argument("status", choices=("draft", "ready", "excluded"))
    p.add_argument("--accept", metavar="REASON", help="accept readable key text, and say why")
    p.add_argument("--expected-version", type=int, metavar="N", help=EXPECTED_HELP)
    p.set_defaults(func=_set_status)

    p = item_command(
        commands,
        "add-key",
        "a second curator's independent key of an item (for `labeler agreement`)",
    )
    p.add_argument("names", nargs="+", metavar="NAME", help="the names that curator gave")
    p.add_argument("--curator", required=True, help="whose key it is")
    p.set_defaults(func=_add_key)

    p = project_command(
        commands,
        "check",
        "read each question back: is any key text still readable?",
        description="The residual-label check: the question PDF's text, plus OCR of the "
        "question image for outline and raster figures (--ocr: for every figure).",
    )
    p.add_argument("ids", nargs="*", help="items to check (default: every item)")
    p.add_argument("--ocr", action="store_true", help="also OCR vector-text figures")
    p.set_defaults(func=_check)


def _at_version(args: argparse.Namespace, item: Item) -> int:
    """The version to write at: the one read, unless ``--expected-version`` names another."""
    from labeler.errors import EditConflict

    if args.expected_version is not None and args.expected_version != item.version:
        raise EditConflict(
            f"item {item.id} is at version {item.version}, not {args.expected_version}: "
            "someone changed it since; nothing was written"
        )
    return item.version


def _refused(args: argparse.Namespace, change: Callable[[], int]) -> int:
    """Run ``change``; an :class:`EditConflict` is one clear line and :data:`EXIT_CONFLICT`."""
    from labeler.errors import EditConflict

    try:
        return change()
    except EditConflict as exc:
        print(f"labeler: edit conflict: {exc}", file=sys.stderr)
        print(
            f"labeler: see it as it is now: labeler items show {args.dir} {args.id}",
            file=sys.stderr,
        )
        return EXIT_CONFLICT


def _list(args: argparse.Namespace) -> int:
    from labeler.export.ids import stored_public_ids
    from labeler.store import Project

    with Project.open(args.dir) as project:
        items = project.items.list(status=args.status, search=args.search)
        public = stored_public_ids(project)
        keys = project.items.keys()
        checks = project.residual_checks.all()
        for item in items:
            check = checks.get(item.id)
            flag = (
                " · key text readable"
                if check and check.readable and not check.override_why
                else ""
            )
            print(
                f"{item.id}\t{public.get(item.id, '-')}\t{item.status}\t{item.tier}\t"
                f"{len(keys.get(item.id, []))} labels\t{item.subject or '(no subject)'}{flag}"
            )
        print(f"{len(items)} item(s)")
    return 0


def _show(args: argparse.Namespace) -> int:
    from labeler.store import Project

    with Project.open(args.dir) as project:
        _print(project, find_item(project, args.id), args.json)
    return 0


def _edit_key(args: argparse.Namespace) -> int:
    from labeler.curation import edit_entry, find_entry, parse_alternatives, tidy_entry
    from labeler.errors import LabelerError
    from labeler.store import Project

    edits = (args.name, args.alternatives, args.note)
    listed = args.add_alternative + args.remove_alternative
    if all(v is None for v in edits) and not listed and not args.tidy:
        raise LabelerError(
            "say what to change: --name, --alternatives, --add-alternative, "
            "--remove-alternative, --note or --tidy"
        )
    with Project.open(args.dir) as project:
        item = find_item(project, args.id)
        key = project.items.key(item.id)
        index = find_entry(key, args.entry)
        entry = key[index]
        if args.name is not None:
            entry = edit_entry(entry, name=args.name)
        if args.tidy:
            entry = tidy_entry(entry)
        alternatives = list(entry.alternatives)
        if args.alternatives is not None:
            alternatives = list(parse_alternatives(args.alternatives))
        for gone in args.remove_alternative:
            kept = [a for a in alternatives if a.casefold() != gone.strip().casefold()]
            if len(kept) == len(alternatives):
                have = "; ".join(alternatives) or "none"
                raise LabelerError(f"{entry.name!r} has no alternative {gone!r} (it has: {have})")
            alternatives = kept
        alternatives += args.add_alternative
        changed = edit_entry(entry, alternatives=alternatives, note=args.note)
        new_key = [*key[:index], changed, *key[index + 1 :]]

        def change() -> int:
            expected = _at_version(args, item)
            if changed != key[index]:  # the key read after the item: its write checks that too
                project.items.set_key(item.id, new_key, expected_version=expected)
            _print(project, project.items.get(item.id), args.json)
            return 0

        return _refused(args, change)


def _add_key(args: argparse.Namespace) -> int:
    from labeler.agreement import add_curator_key
    from labeler.store import Project

    with Project.open(args.dir) as project:
        key = add_curator_key(project, find_item(project, args.id).id, args.curator, args.names)
        print(f"{key.item_id}: key of {key.curator} stored ({len(key.names)} names)")
    return 0


def _set_status(args: argparse.Namespace) -> int:
    from labeler.readiness import accept_residual_labels, update_item
    from labeler.store import Project

    with Project.open(args.dir) as project:
        item = find_item(project, args.id)

        def change() -> int:
            expected = _at_version(args, item)  # before --accept: a stale command records nothing
            if args.accept is not None:
                accept_residual_labels(project, item.id, args.accept)
            done = update_item(project, item.id, status=args.status, expected_version=expected)
            print(f"{done.id}: {done.status} (version {done.version})")
            return 0

        return _refused(args, change)


def _check(args: argparse.Namespace) -> int:
    from labeler.readiness import check_residual_labels
    from labeler.store import Project

    with Project.open(args.dir) as project:
        ids = [find_item(project, i).id for i in args.ids] or [i.id for i in project.items.list()]
        flagged = 0
        for item_id in ids:
            check = check_residual_labels(project, item_id, ocr=True if args.ocr else None)
            if check.readable:
                flagged += 1
                print(f"{item_id}: still readable ({check.method}): {', '.join(check.readable)}")
        print(f"{len(ids)} item(s) checked, {flagged} with readable key text")
    return 1 if flagged else 0


def _print(project: Project, item: Item, as_json: bool) -> None:
    import json

    from labeler.curation import format_alternatives, item_as_json
    from labeler.export.ids import stored_public_ids

    if as_json:
        print(json.dumps(item_as_json(project, item), indent=2, ensure_ascii=False))
        return
    public = stored_public_ids(project).get(item.id, "not yet exported")
    print(
        f"{item.id} ({public}) · {item.status} · {item.tier} · pattern {item.pattern}"
        f" · version {item.version}"
    )
    print(f"subject: {item.subject or '(none)'}")
    check = project.residual_checks.get(item.id)
    if check is None:
        print("residual-label check: not run yet")
    elif not check.readable:
        print(f"residual-label check: clean ({check.method})")
    else:
        state = (
            f"accepted by {check.override_by}: {check.override_why}"
            if check.override_why
            else "blocks ready"
        )
        print(f"residual-label check: still readable {', '.join(check.readable)} ({state})")
    key = project.items.key(item.id)
    print(f"key ({len(key)} entr{'y' if len(key) == 1 else 'ies'}):")
    for n, e in enumerate(key, start=1):
        marker = f" [{e.marker}]" if e.marker else ""
        print(f"  {n}. {e.name or '(marker only)'}{marker}")
        if e.alternatives:
            print(f"     alternatives: {format_alternatives(e.alternatives)}")
        if e.note:
            print(f"     note: {e.note}")
