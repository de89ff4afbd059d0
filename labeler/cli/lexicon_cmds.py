"""Lexicon commands: ``labeler lexicon list|add|remove|import|export|suggest DIR``.

Each is a thin wrapper over :mod:`labeler.lexicon_project` and :mod:`labeler.suggestions`
(the functions the GUI's Lexicon view calls), so the whole lexicon workflow works without
the GUI. ``list`` and ``import`` print the lint: issues are reported, never refused.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from labeler.cli._commands import command_group, project_command

if TYPE_CHECKING:
    from labeler.lexicon_lint import LintIssue


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler lexicon`` and its sub-commands."""
    commands = command_group(
        sub, "lexicon", "list, edit, import, export the project's lexicon", metavar="ACTION"
    )

    p = project_command(commands, "list", "print the global rows and the lint")
    p.add_argument("--search", default="", help="only rows whose names contain this text")
    p.set_defaults(func=_list)

    for action, text in (("add", "add a row"), ("remove", "remove a row")):
        p = project_command(commands, action, text)
        p.add_argument("canonical", help="the key-side name")
        p.add_argument("synonym", help="the other name")
        p.add_argument(
            "--relation",
            choices=("same", "distinct"),
            default="same" if action == "add" else None,
            help="same (default for add) or distinct; remove matches either when omitted",
        )
        p.set_defaults(func=_add if action == "add" else _remove)

    p = project_command(commands, "import", "merge a canonical,synonym,relation CSV")
    p.add_argument("csv", help="the CSV file to merge")
    p.set_defaults(func=_import)

    p = project_command(commands, "export", "write the global rows to a CSV")
    p.add_argument("csv", help="the CSV file to write")
    p.set_defaults(func=_export)

    p = project_command(
        commands, "suggest", "pairs worth a row: from the answers, and related ontology synonyms"
    )
    p.set_defaults(func=_suggest)


def _list(args: argparse.Namespace) -> int:
    from labeler.lexicon_project import list_rows, project_lint
    from labeler.store import Project

    with Project.open(args.dir) as project:
        rows = list_rows(project, args.search)
        for row in rows:
            print(f"{row.canonical}\t{row.synonym}\t{row.relation}")
        print(f"{len(rows)} rows")
        _print_lint(project_lint(project))
    return 0


def _add(args: argparse.Namespace) -> int:
    from labeler.lexicon_project import add_row
    from labeler.store import Project

    with Project.open(args.dir) as project:
        canonical, synonym, relation = add_row(project, args.canonical, args.synonym, args.relation)
        print(f"added {canonical!r} = {synonym!r} ({relation})")
    return 0


def _remove(args: argparse.Namespace) -> int:
    from labeler.lexicon_project import remove_row
    from labeler.store import Project

    with Project.open(args.dir) as project:
        for canonical, synonym, relation in remove_row(
            project, args.canonical, args.synonym, args.relation
        ):
            print(f"removed {canonical!r} = {synonym!r} ({relation})")
    return 0


def _import(args: argparse.Namespace) -> int:
    from labeler.lexicon_project import import_csv
    from labeler.store import Project

    with Project.open(args.dir) as project:
        plan = import_csv(project, args.csv)
        print(f"imported {len(plan.rows)} new rows ({plan.already_present} already present)")
        _print_lint(plan.issues, "lint of the imported rows")
    return 0


def _export(args: argparse.Namespace) -> int:
    from labeler.lexicon_project import export_csv
    from labeler.store import Project

    with Project.open(args.dir) as project:
        print(f"wrote {export_csv(project, args.csv)} rows to {args.csv}")
    return 0


def _suggest(args: argparse.Namespace) -> int:
    from labeler.store import Project
    from labeler.suggestions import project_related_suggestions, project_suggestions

    with Project.open(args.dir) as project:
        found = project_suggestions(project)
        related = project_related_suggestions(project)
    print(f"{len(found)} suggestions from the answers (key = answer):")
    for s in found:
        print(
            f"  {s.key}\t{s.pred}\tsimilarity {s.similarity:.2f}, {s.n_models} models, "
            f"{s.n_answers} answers, {s.n_items} items"
        )
    print(f"{len(related)} related ontology synonyms (suggestions only, never added):")
    for r in related:
        print(f"  {r.name}\t{r.related}\t{r.source}: {r.note}")
    return 0


def _print_lint(issues: Sequence[LintIssue], lead: str = "lint") -> None:
    """The lint as a count and one line per issue (issues are warnings, not errors)."""
    print(f"{lead}: {len(issues)} issue(s)")
    for issue in issues:
        print(f"  {issue.kind}: {issue.message}")
