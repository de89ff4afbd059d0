"""``labeler prompts``: which prompt set a project asks with (the card's, or another domain's)."""

from __future__ import annotations

import argparse

from labeler.cli._commands import command_group, project_command


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler prompts show|set|reset``."""
    commands = command_group(sub, "prompts", "show or choose the project's prompt set")

    p = project_command(commands, "show", "print every prompt the project asks with, verbatim")
    p.set_defaults(func=_show)

    p = project_command(
        commands,
        "set",
        "ask with the prompt set in a TOML file (validated first)",
        description='FILE has `name = "..."` and a [prompts] table with blind, told, desc '
        "(and optionally no-image, slots, slots-no-image) texts using {subject} (and {slots}); "
        "the four must share one JSON output schema.",
    )
    p.add_argument("file", help="the prompt-set TOML file")
    p.set_defaults(func=_set)

    p = project_command(commands, "reset", "ask with the dataset card's prompts again")
    p.set_defaults(func=_reset)


def _show(args: argparse.Namespace) -> int:
    from labeler.prompts import ALL_CONDITIONS, project_prompts, prompt_sha256
    from labeler.store import Project

    with Project.open(args.dir) as project:
        prompt_set = project_prompts(project)
        print(f"prompt set: {prompt_set.name}")
        for condition in ALL_CONDITIONS:
            text = prompt_set.templates.get(condition)
            if text is None:
                print(f"\n## {condition}: none (this set cannot ask it)")
                continue
            print(f"\n## {condition} (template sha256 {prompt_sha256(text)[:12]})\n{text}")
    return 0


def _set(args: argparse.Namespace) -> int:
    from pathlib import Path

    from labeler.errors import LabelerError
    from labeler.prompts import use_prompt_set
    from labeler.store import Project

    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelerError(f"cannot read the prompt-set file {args.file}: {exc}") from None
    with Project.open(args.dir) as project:
        prompt_set = use_prompt_set(project, text)
        print(f"{args.dir}: asks with the prompt set {prompt_set.name!r} from now on")
    return 0


def _reset(args: argparse.Namespace) -> int:
    from labeler.prompts import use_prompt_set
    from labeler.store import Project

    with Project.open(args.dir) as project:
        use_prompt_set(project, None)
        print(f"{args.dir}: asks with the dataset card's prompts")
    return 0
