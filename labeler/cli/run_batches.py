"""``labeler batches``: the batch jobs ``labeler run --batch`` submitted, and collecting them.

Without flags it lists the project's jobs from the project alone (no network, no key).
``--collect`` asks each waiting job where it is and stores the answers of every finished
one; ``--wait`` does that every ``--poll`` seconds until no job is waiting.
"""

from __future__ import annotations

import argparse
import sys

from labeler.cli._commands import project_command


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler batches``."""
    p = project_command(sub, "batches", "list, poll and collect the batch jobs of a project")
    p.add_argument(
        "--collect",
        action="store_true",
        help="ask the providers where each waiting job is and store every finished job's answers",
    )
    p.add_argument(
        "--wait", action="store_true", help="collect until no job is waiting (implies --collect)"
    )
    p.add_argument(
        "--poll",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="with --wait: seconds between looks (default 60)",
    )
    p.set_defaults(func=_batches)


def _batches(args: argparse.Namespace) -> int:
    from labeler.cli.run_cmds import print_collected
    from labeler.runs.batch import collect_batches, wait_for_batches
    from labeler.store import Project

    with Project.open(args.dir) as project:
        if args.wait:
            wait_for_batches(project, args.poll, on_look=print_collected)
        elif args.collect:
            print_collected(collect_batches(project))
        jobs = project.batches.jobs()
        if not jobs:
            print("no batch jobs in this project")
            return 0
        for job in jobs:
            done = "collected" if job.collected_at else f"{job.answered or 0}/{job.requests}"
            print(
                f"{job.id}\t{job.model}\t{job.provider_id}\t{job.state}\t{done}\t"
                f"submitted {job.submitted_at}"
            )
        waiting = [j for j in jobs if j.collected_at is None]
        if waiting and not args.wait:
            print(
                f"{len(waiting)} job(s) waiting; `labeler batches {args.dir} --collect` stores "
                "what is ready (--wait: until all are done)",
                file=sys.stderr,
            )
    return 0
