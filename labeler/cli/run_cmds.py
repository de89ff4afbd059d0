"""``labeler run``: send a project's items to the configured models.

Prints the plan and its estimated cost first, then one progress line with live
counts per status and the cost so far, then the actual cost. ``--dry-run``
prints every call it would make and sends nothing.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING

from labeler.cli._args import positive_int

if TYPE_CHECKING:
    from labeler.runs.runner import RunProgress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler run``."""
    p = sub.add_parser("run", help="send items to models under the four conditions")
    p.add_argument("dir", help="the project folder")
    p.add_argument(
        "--models",
        help="models.toml (see labeler/data/models.example.toml); without it only the offline "
        "baseline/subject-prior runs",
    )
    p.add_argument(
        "--model", action="append", metavar="NAME", help="run only this model (repeatable)"
    )
    p.add_argument(
        "--conditions",
        default="blind,told,desc,no-image",
        help="comma-separated conditions (default: the card's four; also slots, slots-no-image)",
    )
    p.add_argument("--items", nargs="+", metavar="ID", help="run only these item ids")
    p.add_argument(
        "--concurrency",
        type=positive_int,
        metavar="N",
        help="calls in flight per model, for models whose models.toml entry sets no "
        "concurrency (default 4)",
    )
    p.add_argument(
        "--max-cost",
        type=_dollars,
        metavar="USD",
        help="stop sending before this run's spend could pass USD (answered calls at their "
        "actual cost, calls in flight at their estimate); exits 3 when it stops there",
    )
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="re-send cells whose answer was api_error, truncated or empty",
    )
    p.add_argument("--dry-run", action="store_true", help="print the calls, send nothing")
    p.add_argument(
        "--retry-base-delay",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="first back-off delay; doubles per attempt, Retry-After wins if longer (default 1)",
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from labeler.errors import ConfigError
    from labeler.providers.config import baseline_model, load_models
    from labeler.runs.runner import (
        DEFAULT_CONCURRENCY,
        RETRYABLE,
        RetryPolicy,
        RunOptions,
        RunRequest,
        plan_run,
        run,
    )
    from labeler.status import ResponseStatus
    from labeler.store import Project

    if args.models:
        # a dry run plans and estimates; it needs no key, so none is asked for
        models = load_models(args.models, only=args.model, require_keys=not args.dry_run)
    elif args.model and set(args.model) != {baseline_model().name}:
        raise ConfigError("--model needs --models models.toml (only the baseline is built in)")
    else:
        models = [baseline_model()]
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    with Project.open(args.dir) as project:
        request = RunRequest(models, conditions, args.items, args.retry_failed)
        plan = plan_run(project, request)
        estimate, unpriced = plan.estimated_cost()
        print(
            f"{len(plan.calls)} calls to make, {plan.skipped} cells already answered "
            f"(skipped), estimated cost {_money(estimate, unpriced)}"
        )
        for line in plan.unrunnable:
            print(f"cannot run {line}", file=sys.stderr)
        if args.dry_run:
            for call in plan.calls:
                image = (
                    f"image {call.image.width}x{call.image.height} {call.image.mime} "
                    f"{len(call.image.data)} B"
                    if call.image
                    else "no image"
                )
                print(
                    f"{call.item_id}\t{call.model.name}\t{call.condition}\t{image}\t"
                    f"{call.request_hash[:12]}"
                )
            return 0
        if not plan.calls:
            return 0
        progress = _ProgressLine(len(plan.calls))
        options = RunOptions(
            concurrency=args.concurrency or DEFAULT_CONCURRENCY,
            retry=RetryPolicy(base_delay_s=args.retry_base_delay),
            on_progress=progress,
            max_cost_usd=args.max_cost,
        )
        try:
            summary = run(project, request, options, plan=plan)
        except KeyboardInterrupt:
            progress.close()
            print(
                "\nstopped. Every answer received so far is stored; run the same command again "
                "to go on (answered cells are skipped, so nothing is sent or paid twice).",
                file=sys.stderr,
            )
            return 130
        progress.close()
        errors = project.responses.run_errors(summary.run_id) if summary.run_id else []
    counts = ", ".join(f"{k} {v}" for k, v in summary.counts.items() if v)
    print(f"sent {summary.sent} of {summary.planned} calls: {counts or 'none'}")
    print(f"actual cost {_money(summary.cost_usd, unpriced)}")
    if summary.capped:
        print(
            f"stopped at the spending cap: ${summary.cost_usd:.4f} of ${args.max_cost:.4f}; "
            f"{summary.planned - summary.sent} calls not sent; raise --max-cost to go on "
            "(answered cells are skipped)",
            file=sys.stderr,
        )
        return 3
    failed = sum(summary.counts.get(s, 0) for s in RETRYABLE)
    answered = summary.sent - summary.counts.get(ResponseStatus.API_ERROR, 0)
    if summary.sent and not answered:
        print("every call failed; nothing was answered. The provider said:", file=sys.stderr)
        for model, error in errors:
            print(f"  {model}: {error}", file=sys.stderr)
        return 1
    if failed:
        print(f"{failed} failed cells; re-send them with --retry-failed", file=sys.stderr)
    return 0


def _dollars(text: str) -> float:
    """``--max-cost``: a non-negative amount of US dollars (a leading ``$`` is allowed)."""
    try:
        value = float(text.strip().removeprefix("$"))
    except ValueError:
        value = -1.0
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(
            f"expected an amount of dollars such as 5 or 2.50, got {text!r}"
        )
    return value


def _money(amount: float, unpriced: list[str]) -> str:
    text = f"${amount:.4f}"
    if unpriced:
        text += f" (+ unknown for {', '.join(unpriced)}: no prices in models.toml)"
    return text


class _ProgressLine:
    """A bar with counts per status, redrawn in place on a terminal, throttled otherwise."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.tty = sys.stderr.isatty()
        self.step = max(1, total // 20)

    def __call__(self, progress: RunProgress) -> None:
        if not self.tty and progress.done % self.step and progress.done != self.total:
            return
        filled = int(30 * progress.done / self.total)
        counts = " ".join(f"{k} {v}" for k, v in progress.counts.items() if v)
        line = (
            f"[{'#' * filled}{'.' * (30 - filled)}] {progress.done}/{self.total}  {counts}  "
            f"${progress.cost_usd:.4f}"
        )
        if self.tty:
            sys.stderr.write("\r" + line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def close(self) -> None:
        if self.tty:
            sys.stderr.write("\n")
