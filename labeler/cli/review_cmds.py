"""``labeler review`` (reviewer decisions) and ``labeler agreement`` (curator agreement).

Every decision names its reviewer (``--reviewer`` or ``LABELER_REVIEWER``) and is appended to
the project's audit trail; ``undo`` appends a reversal. ``log`` prints the trail.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from labeler.cli._commands import command_group, find_item, item_command, project_command

if TYPE_CHECKING:
    from labeler.agreement import Agreement
    from labeler.store import Project


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler review`` with its sub-commands, and ``labeler agreement``."""
    commands = command_group(sub, "review", "approve items, override scores, comment, undo, log")

    _decision(commands, "approve", "mark an item ready, recorded with your name", _approve)
    _decision(commands, "confirm-key", "record that you checked the item's key as it is", _confirm)

    text = "give one answer a score in place of the scorer's"
    p = _decision(commands, "override", text, _override)
    p.add_argument("model", help="the model, as in `labeler review log` or the Review view")
    p.add_argument("condition", help="blind, told, desc or no-image")
    p.add_argument("score", help="a number from 0 to 1, or correct / incorrect")
    p.add_argument("--reason", required=True, help="why the scorer's number is wrong")

    p = _decision(commands, "comment", "a comment on an item, or on one cell of it", _comment)
    p.add_argument("text", help="the comment")
    p.add_argument("--model", help="with --condition: comment on this cell")
    p.add_argument("--condition", help="with --model: comment on this cell")

    p = project_command(
        commands,
        "undo",
        "take a decision back (appends a reversal; nothing is deleted)",
        description="Undo decision EVENT (its number in `labeler review log`), or with --last "
        "the newest decision of yours on item ID that is still in force.",
    )
    p.add_argument("event", nargs="?", type=int, help="the decision's number")
    p.add_argument("--last", metavar="ID", help="your newest decision on this item")
    _reviewer(p)
    p.set_defaults(func=_undo)

    p = project_command(commands, "log", "the audit trail, oldest first")
    p.add_argument("id", nargs="?", help="only this item (internal id or PREFIX-N)")
    p.add_argument("--json", action="store_true", help="one JSON object per decision")
    p.set_defaults(func=_log)

    p = project_command(
        sub,
        "agreement",
        "how far two curators' keys agree (name-set F1), and where they differ",
        description="With one project: every second key (`labeler items add-key --curator`) "
        "against the item's key. With two: the keys of the figures both projects hold (same "
        "source bytes and page, overlapping clip). Scored with the same scorer as the models.",
    )
    p.add_argument("other", nargs="?", help="a second project keyed independently")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=_agreement)


#: One decision on one item: ``(project, item id, reviewer, args)`` -> the line printed.
Decide = Callable[["Project", str, str, argparse.Namespace], str]


def _decision(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    text: str,
    decide: Decide,
) -> argparse.ArgumentParser:
    """A decision sub-command: ``DIR ID [--reviewer NAME]``, then its own arguments."""
    p = item_command(commands, name, text)
    _reviewer(p)
    p.set_defaults(func=functools.partial(_decide, decide))
    return p


def _reviewer(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reviewer", help="your name (default: $LABELER_REVIEWER)")


def _decide(decide: Decide, args: argparse.Namespace) -> int:
    """The reviewer named (or refused) before the project opens, then the item found."""
    from labeler import review
    from labeler.store import Project

    who = review.reviewer_name(args.reviewer)
    with Project.open(args.dir) as project:
        print(decide(project, _item_id(project, args.id), who, args))
    return 0


def _item_id(project: Project, given: str) -> str:
    return find_item(project, given).id


def _approve(project: Project, item_id: str, who: str, args: argparse.Namespace) -> str:
    from labeler import review

    event = review.approve(project, item_id, who)
    return f"#{event.id} {event.item_id}: approved (ready) by {who}"


def _confirm(project: Project, item_id: str, who: str, args: argparse.Namespace) -> str:
    from labeler import review

    event = review.confirm_key(project, item_id, who)
    return f"#{event.id} {event.item_id}: key confirmed by {who}"


def _override(project: Project, item_id: str, who: str, args: argparse.Namespace) -> str:
    from labeler import review

    event = review.override(
        project, item_id, args.model, args.condition, args.score, args.reason, who
    )
    return (
        f"#{event.id} {item_id} {args.model} · {args.condition}: score {event.value:g} "
        f"by {who} (answer {event.response_id})"
    )


def _comment(project: Project, item_id: str, who: str, args: argparse.Namespace) -> str:
    from labeler import review

    event = review.comment(project, item_id, args.text, who, args.model, args.condition)
    return f"#{event.id} {item_id}: comment by {who}"


def _undo(args: argparse.Namespace) -> int:
    from labeler import review
    from labeler.errors import LabelerError
    from labeler.store import Project

    if (args.event is None) == (args.last is None):
        raise LabelerError("say which decision to undo: its number, or --last ITEM")
    who = review.reviewer_name(args.reviewer)
    with Project.open(args.dir) as project:
        if args.last is not None:
            target = review.last_undoable(project, _item_id(project, args.last), who).id
        else:
            target = args.event
        event = review.undo(project, target, who)
        print(f"#{event.id} {event.item_id}: undid #{target}")
    return 0


def _log(args: argparse.Namespace) -> int:
    import dataclasses
    import json

    from labeler import review
    from labeler.store import Project
    from labeler.text.counted import counted

    with Project.open(args.dir) as project:
        item_id = _item_id(project, args.id) if args.id else None
        decisions = review.history(project, item_id)
        for d in decisions:
            if args.json:
                row = dataclasses.asdict(d.event) | {"in_force": d.in_force}
                print(json.dumps(row, ensure_ascii=False))
            else:
                print(f"{d.event.item_id}\t{review.describe(d)}")
        if not args.json:
            counts = review.review_counts(project, None if item_id is None else [item_id])
            print(f"{counted(len(decisions), 'decision')}; {review.counts_line(counts)}")
    return 0


def _agreement(args: argparse.Namespace) -> int:
    from labeler.agreement import curator_agreement, project_agreement
    from labeler.store import Project

    with Project.open(args.dir) as project:
        if args.other is None:
            found = curator_agreement(project)
        else:
            with Project.open(args.other) as other:
                found = project_agreement(project, other)
    _print_agreement(found, args.json)
    return 0


def _print_agreement(found: Agreement, as_json: bool) -> None:
    import dataclasses
    import json

    from labeler.text.counted import counted

    if as_json:
        data = {
            "mean_f1": found.mean_f1,
            "items": len(found.comparisons),
            "comparisons": [dataclasses.asdict(c) for c in found.comparisons],
            "unpaired": list(found.unpaired),
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    if found.mean_f1 is None:
        print("no figure has two keys: add one with `labeler items add-key DIR ID --curator NAME`")
        return
    n = len(found.comparisons)
    print(f"key agreement: mean name-set F1 {found.mean_f1:.3f} over {counted(n, 'figure')}")
    disputed = found.disagreements
    print(f"{counted(len(disputed), 'figure')} to resolve" + (":" if disputed else ""))
    for c in disputed:
        print(f"  {c.item_id} ({c.subject or 'no subject'}) F1 {c.f1:.3f}")
        if c.only_first:
            print(f"    only in {c.first}: {'; '.join(c.only_first)}")
        if c.only_second:
            print(f"    only in {c.second}: {'; '.join(c.only_second)}")
    if found.unpaired:
        print(f"{counted(len(found.unpaired), 'item')} of the second project matched no figure")
