"""``labeler slots``: an item's numbered-slot question, and its slot order."""

from __future__ import annotations

import argparse

from labeler.cli._commands import command_group, find_item, item_command


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler slots show|order``."""
    commands = command_group(sub, "slots", "an item's numbered slots: show them, set their order")

    p = item_command(commands, "show", "list an item's slots in order (and write its image)")
    p.add_argument("--png", help="write the slot image here")
    p.set_defaults(func=_show)

    p = item_command(
        commands,
        "order",
        "number an item's slots in another order (positions left out are dropped)",
        description="ORDER is the key positions (0-based, as `labeler items show` lists "
        "them) in slot order, comma-separated; --reset returns to reading order.",
    )
    p.add_argument("order", nargs="?", help="e.g. 2,0,1,3")
    p.add_argument("--reset", action="store_true", help="back to reading order")
    p.set_defaults(func=_order)


def _show(args: argparse.Namespace) -> int:
    from labeler.atomic import write_bytes
    from labeler.errors import LabelerError
    from labeler.slots import slot_question
    from labeler.store import Project

    with Project.open(args.dir) as project:
        item_id = find_item(project, args.id).id
        question = slot_question(project, item_id)
        if question is None:
            raise LabelerError(
                f"{args.id} has no slot question: it needs a question image and a named key"
                " entry with a box (or a named printed marker)"
            )
        for slot in question.slots:
            print(f"{slot.mark}\t{slot.name}\t(key position {slot.position})")
        if args.png:
            write_bytes(args.png, question.png)
            print(f"slot image -> {args.png}")
    return 0


def _order(args: argparse.Namespace) -> int:
    from labeler.errors import LabelerError
    from labeler.slots import set_slot_order, slot_order
    from labeler.store import Project

    if args.reset == (args.order is not None):
        raise LabelerError("give either ORDER (e.g. 2,0,1) or --reset")
    order = None
    if args.order is not None:
        try:
            order = [int(p) for p in args.order.split(",") if p.strip()]
        except ValueError:
            raise LabelerError(
                f"ORDER must be key positions like 2,0,1; got {args.order!r}"
            ) from None
    with Project.open(args.dir) as project:
        item_id = find_item(project, args.id).id
        previous = set_slot_order(project, item_id, order)
        now = slot_order(project, item_id)
        print(f"{args.id}: slots {','.join(map(str, now))} (was {','.join(map(str, previous))})")
    return 0
