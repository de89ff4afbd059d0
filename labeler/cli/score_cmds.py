"""``labeler score`` and ``labeler report``: rescore results.jsonl and print the card's table."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.analysis import AuditKeeper
    from labeler.lexicon import Lexicon
    from labeler.store import Project


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` and ``report`` sub-commands."""
    score = subparsers.add_parser(
        "score",
        help="re-score results.jsonl rows from predicted_names/key_names",
        description="Recompute f1, precision, recall, n_pred and n_key (and the unsolved_core "
        "and recitable flags, where rows carry them) for every row of a results.jsonl file with "
        "the synonym-aware scorer; print the rows or write them to --out. An items.jsonl beside "
        "the results supplies each item's published lexicon rows (--lexicon is layered on top).",
    )
    score.add_argument("results", help="results.jsonl")
    score.add_argument("--lexicon", help="lexicon CSV (canonical,synonym,relation)")
    score.add_argument("--out", help="write rescored rows here (atomically) instead of stdout")
    _add_rules(score)
    score.set_defaults(func=_score)

    report = subparsers.add_parser(
        "report",
        help="print the dataset card's results table from results.jsonl or a project",
        description="Mean F1 per model and condition, grounded contribution (told − no-image, "
        "points) and recitation share (no-image ÷ told, %), one row per model sorted by told, "
        "with how many items grounded and recited pair; marker accuracy (a project only: "
        "results.jsonl has no location hints); then the audits: decline rate, consensus names "
        "absent from the key, shuffled-key control. From a project folder it reports the answers "
        "that count, exactly the rows an export would publish. Answers under the slot conditions "
        "(slots, slots-no-image) get their own table: slot accuracy under both, the gap, chance "
        "level and name-set F1 minus slot accuracy, with paired bootstrap CIs.",
    )
    report.add_argument("results", help="results.jsonl, or a project folder")
    report.add_argument("--format", choices=("markdown", "csv", "json"), default="markdown")
    report.add_argument("--lexicon", help="rescore with this lexicon CSV before reporting")
    report.add_argument("--seed", type=int, default=0, help="bootstrap seed for json CIs")
    _add_rules(report)
    report.set_defaults(func=_report)


def _add_rules(parser: argparse.ArgumentParser) -> None:
    from labeler.scoring.rules import DEFAULT_RULES, RULES

    parser.add_argument(
        "--rules",
        choices=RULES,
        default=DEFAULT_RULES,
        help="scoring rules: 'expert' reads answers as a biology grader does (default); "
        "'card' is the dataset card's scorer exactly, to re-score published data",
    )


def _load(args: argparse.Namespace) -> list[dict[str, Any]]:
    from labeler.lexicon import Lexicon
    from labeler.scoring.rescore import read_item_lexicons, read_results, rescore_rows
    from labeler.scoring.rules import DEFAULT_RULES

    rows = read_results(args.results)
    if args.lexicon or args.command == "score" or args.rules != DEFAULT_RULES:
        lexicon = Lexicon.from_csv(args.lexicon) if args.lexicon else None
        items = Path(args.results).with_name("items.jsonl")
        item_lexicons = read_item_lexicons(items) if items.is_file() else None
        if item_lexicons:
            print(f"using per-item lexicon rows from {items}", file=sys.stderr)
        rows = rescore_rows(rows, lexicon, item_lexicons, rules=args.rules)
        print(f"scored with the {args.rules!r} rules", file=sys.stderr)
    return rows


def _score(args: argparse.Namespace) -> int:
    from labeler.atomic import write_text
    from labeler.scoring.rescore import dump_results

    text = dump_results(_load(args))
    if args.out:
        write_text(args.out, text)
        print(f"rescored {text.count(chr(10))} rows -> {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _report(args: argparse.Namespace) -> int:
    import pandas as pd

    from labeler.scoring.rescore import ResultsFileError

    if Path(args.results).is_dir():
        from labeler.results.audits import AuditCache
        from labeler.store import Project

        _check_project_args(args)
        with Project.open(args.results) as project:
            frame, project_lexicon, slot_frame, review = _project_frame(project, args)
            return _print_report(
                args, frame, project_lexicon, slot_frame, review, AuditCache(project)
            )
    rows = _load(args)
    if not rows:
        raise ResultsFileError(f"{args.results} has no rows to report")
    return _print_report(args, pd.DataFrame(rows), None, None, None, None)


def _print_report(
    args: argparse.Namespace,
    frame: Any,
    project_lexicon: Lexicon | None,
    slot_frame: Any,
    review: str | None,
    keeper: AuditKeeper | None,
) -> int:
    """Print the report of ``frame`` (a project's keeps its audits' work in ``keeper``)."""
    from labeler import analysis, slot_results
    from labeler.prompts import CONDITIONS
    from labeler.results_table import render_csv
    from labeler.scoring.rescore import ResultsFileError

    missing = [c for c in ("item_id", "model", "condition", "f1") if c not in frame.columns]
    if missing:
        raise ResultsFileError(f"{args.results}: rows lack {', '.join(missing)}")
    slots = slot_results.slot_table(slot_frame if slot_frame is not None else frame, seed=args.seed)
    frame = frame[frame["condition"].isin(CONDITIONS)]  # the card's analysis: its four only
    table = analysis.results_table(frame)
    if args.format == "csv":
        sys.stdout.write(render_csv(table))
        return 0
    lexicon = project_lexicon
    if args.lexicon:
        from labeler.lexicon import Lexicon

        lexicon = Lexicon.from_csv(args.lexicon)
    audit = analysis.audits(frame, lexicon, seed=args.seed, keeper=keeper)
    if args.format == "markdown":
        sys.stdout.write(analysis.render_markdown(table, audit))
        if not slots.empty:
            sys.stdout.write("\n" + slot_results.render_slot_markdown(slots))
        if review is not None:
            print(f"\nReview: {review}")
    else:
        cis = analysis.bootstrap_ci(frame, seed=args.seed)
        report = json.loads(analysis.render_json(table, cis, audit))
        if not slots.empty:
            report["slots"] = slot_results.slot_json(slots)
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    return 0


#: The columns ``labeler report`` reads of a project's cells (labeler.analysis's inputs).
REPORT_COLUMNS = (
    "item_id",
    "model",
    "condition",
    "f1",
    "predicted_names",
    "key_names",
    "marker_accuracy",
)


def _check_project_args(args: argparse.Namespace) -> None:
    from labeler.errors import LabelerError

    if args.lexicon:
        raise LabelerError(
            "--lexicon rescoring works on results.jsonl; a project scores with its own lexicon "
            "(edit it with `labeler lexicon`, or export and report the results.jsonl)"
        )


def _project_frame(project: Project, args: argparse.Namespace) -> tuple[Any, Lexicon, Any, str]:
    """A project's counted cells as a results frame, its lexicon (for the audits), its
    scored slot answers (:func:`labeler.slot_results.slot_frame`) and its review line
    (items reviewed and scores overridden, :mod:`labeler.review`).

    The cells are :func:`labeler.results.cell_columns`' counted ones (the rule every view
    and the export use, so this report shows their numbers), read once as columns: the
    slot answers are scored from that same read (passed in, not checked again), and the
    frame holds only :data:`REPORT_COLUMNS`, the name lists as the columns' own tuples
    (copying 200k lists into columns nothing mutates was a tenth of the report).
    """
    import pandas as pd

    from labeler.errors import LabelerError
    from labeler.results import cell_columns, project_lexicon
    from labeler.review import counts_line, review_counts
    from labeler.scoring.bulk import collector_paused
    from labeler.slot_results import slot_frame, slot_results

    cells = cell_columns(project)
    lexicon = project_lexicon(project)
    slots = slot_frame(slot_results(project, summaries=cells))
    review = counts_line(review_counts(project))
    counted = [k for k, n in enumerate(cells.counts) if n]
    if not counted:
        raise LabelerError(f"{args.results} has no counted answers to report; run some models")
    with collector_paused():  # one pass over every cell
        columns = {name: getattr(cells, name) for name in REPORT_COLUMNS if name != "key_names"}
        data = {name: [column[k] for k in counted] for name, column in columns.items()}
        data["key_names"] = [cells.key_names[i] for i in data["item_id"]]
        frame = pd.DataFrame({name: data[name] for name in REPORT_COLUMNS})
    return frame, lexicon, slots, review
