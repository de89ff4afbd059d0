"""How the command modules declare their commands: groups, project commands, item commands.

Nearly every command acts on one project folder, named first (``DIR``), and many on one item
of it (``ID``, internal or public); groups such as ``labeler items`` hold sub-commands. Built
here, ``DIR`` and ``ID`` read the same in every ``--help`` and ``ID`` is found the same way by
every command that takes one, so a change to either is one edit. (The leading underscore keeps
this module out of the command discovery in ``labeler.cli``.)
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.store import Item, Project

    #: What ``register`` receives and :func:`command_group` returns: a set of sub-commands.
    Commands = argparse._SubParsersAction[argparse.ArgumentParser]


def command_group(sub: Commands, name: str, text: str, *, metavar: str = "COMMAND") -> Commands:
    """Add the group ``labeler NAME`` (help ``text``); its sub-commands are added to the result.

    The chosen sub-command's name lands in ``args.<name>_command``; one is required.
    """
    group = sub.add_parser(name, help=text)
    return group.add_subparsers(dest=f"{name}_command", required=True, metavar=metavar)


def project_command(
    commands: Commands, name: str, text: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """Add the command ``name`` (help ``text``) whose first argument is the project folder.

    ``kwargs`` go to ``add_parser`` (a ``description``); the command's own arguments follow.
    """
    parser = commands.add_parser(name, help=text, **kwargs)
    parser.add_argument("dir", help="the project folder")
    return parser


def item_command(
    commands: Commands, name: str, text: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """A :func:`project_command` on one item: ``DIR ID``, ``ID`` found by :func:`find_item`."""
    parser = project_command(commands, name, text, **kwargs)
    parser.add_argument("id", help="item id (internal, or the public PREFIX-N)")
    return parser


def find_item(project: Project, given: str) -> Item:
    """The item ``given`` names: an internal id or, once exported, its public id."""
    from labeler.export.ids import internal_ids_by_public

    return project.items.get(internal_ids_by_public(project).get(given, given))
