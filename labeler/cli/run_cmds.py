"""``labeler run``: send a project's items to the configured models.

Prints the plan and its estimated cost (and what batch mode would save) first, then,
on a terminal, a progress bar with live counts per status, the cost so far and the time
remaining, then the actual cost. ``--dry-run`` prints every call it would make and sends
nothing. ``--batch`` submits the calls to the providers' batch APIs and returns; the
same command again (or ``labeler batches DIR --collect``) stores the answers.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING

from labeler.cli._args import positive_int
from labeler.cli._commands import project_command

if TYPE_CHECKING:
    from labeler.runs.batch import BatchRunSummary, CollectSummary
    from labeler.runs.runner import RunPlan, RunProgress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``labeler run``."""
    p = project_command(sub, "run", "send items to models under the four conditions")
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
        "--batch",
        action="store_true",
        help="submit the calls to each provider's batch API at its batch price (half price "
        "by default, batch_discount in models.toml) and return; run again, or `labeler "
        "batches DIR --collect`, to store the answers that are ready",
    )
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
            f"(skipped), estimated cost {_money(estimate, unpriced)}{_saving(plan, args.batch)}"
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
        if args.batch:
            from labeler.runs.batch import run_batch

            options = RunOptions(
                concurrency=args.concurrency or DEFAULT_CONCURRENCY,
                retry=RetryPolicy(base_delay_s=args.retry_base_delay),
                max_cost_usd=args.max_cost,
            )
            return _batch_report(run_batch(project, request, options), args.max_cost)
        if not plan.calls:
            return 0
        progress = ProgressBar(len(plan.calls))
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


def _saving(plan: RunPlan, batch: bool) -> str:
    """What batch mode costs and saves, for the models that have a batch API."""
    full, _ = plan.estimated_cost()
    in_batch, _ = plan.estimated_cost(batch=True)
    if not plan.calls or full == in_batch:
        return ""
    if batch:
        return f"; in batch mode ${in_batch:.4f} (saves ${full - in_batch:.4f})"
    return f"; with --batch ${in_batch:.4f} (saves ${full - in_batch:.4f})"


def _batch_report(summary: BatchRunSummary, cap: float | None) -> int:
    """Print what ``run --batch`` collected and submitted; exit 3 when the cap held some back."""
    print_collected(summary.collected)
    if summary.waiting:
        print(f"{summary.waiting} calls already waiting in submitted batches (not sent again)")
    if summary.submitted_calls:
        print(
            f"submitted {summary.submitted_calls} calls in {len(summary.jobs)} batch job(s), "
            f"estimated ${summary.estimated_usd:.4f} at the batch price; run the same command "
            "again, or `labeler batches DIR --collect` (`--wait` to wait), to store the answers"
        )
    if summary.direct is not None:
        counts = ", ".join(f"{k} {v}" for k, v in summary.direct.counts.items() if v)
        print(f"sent {summary.direct.sent} calls directly (no batch API): {counts or 'none'}")
    if summary.capped:
        print(
            f"stopped at the spending cap (${cap:.4f}): {summary.not_submitted} calls not "
            "submitted; raise --max-cost to go on",
            file=sys.stderr,
        )
        return 3
    return 0


def print_collected(collected: CollectSummary) -> None:
    """One line per look at the waiting jobs: answers stored and jobs still running."""
    if collected.stored:
        counts = ", ".join(f"{k} {v}" for k, v in collected.counts.items() if v)
        print(
            f"collected {collected.stored} answers from {collected.finished} finished batch "
            f"job(s): {counts}; cost ${collected.cost_usd:.4f}"
        )
    if collected.pending:
        print(f"{len(collected.pending)} batch job(s) still running")


class ProgressBar:
    """A tqdm bar on a terminal (stderr a TTY): done/total, counts per status, cost so far
    and time remaining; nothing when stderr is a file or a pipe (logs stay clean)."""

    def __init__(self, total: int, desc: str = "calls") -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=total,
            desc=desc,
            unit="call",
            file=sys.stderr,
            disable=not sys.stderr.isatty(),
            dynamic_ncols=True,
        )

    def __call__(self, progress: RunProgress) -> None:
        counts = " ".join(f"{k} {v}" for k, v in progress.counts.items() if v)
        self.bar.set_postfix_str(f"{counts} ${progress.cost_usd:.4f}", refresh=False)
        self.bar.update(progress.done - self.bar.n)

    def close(self) -> None:
        self.bar.close()
