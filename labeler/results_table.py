"""The card's results table in plain Python: one definition for ``labeler report`` and the card.

One row per model: the mean F1 (%) under each condition, ``grounded = told − no-image`` (points)
and ``recited = no-image ÷ told`` (%), both over the items a model answered under *both* (a
paired difference, the one the bootstrap resamples). A condition not run, or a share whose
``told`` is 0, is ``None`` (shown as ``—``), never zero. Rows are sorted by ``told``
(descending, not run last), then by model.

Every number is defined exactly: sums are exact (:func:`exact_sum`, built on
:func:`math.fsum`), the arithmetic after them is rational, and the value is rounded to a float
once, at the end. So a cell does not depend on the order of the answers, on a library's
private summation (pandas' grouped means were, decision 0027), or on which caller built the
table: the report and the card render the same rows with the same functions. No pandas
here: importing it cost the export ≈ 0.4 s CPU for this table alone (issue #17).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from labeler.prompts import CONDITIONS

TABLE_COLUMNS: tuple[str, ...] = ("model", *CONDITIONS, "grounded", "recited")
METRICS: tuple[str, ...] = TABLE_COLUMNS[1:]

#: One scored cell as the table reads it: ``(item_id, model, condition, f1)``; an ``f1`` of
#: ``None`` or NaN is no score (skipped, as a mean over the known ones).
Cell = tuple[str, str, str, float | None]


@dataclass(frozen=True)
class TableRow:
    """One model's row: ``values`` has every :data:`METRICS` key, ``None`` where undefined."""

    model: str
    values: dict[str, float | None]


def exact_sum(values: Iterable[float]) -> Fraction:
    """The exact sum of finite floats, with :func:`math.fsum` as its only adder.

    ``fsum`` returns the sum correctly rounded; subtracting that float and summing again gives
    the rounded remainder, and so on until the remainder is zero. Each round takes the next
    53 bits, so a float sum ends in a few rounds (two for F1 scores); the parts add up to the
    sum exactly. Order never matters.
    """
    terms = list(values)
    parts: list[float] = []
    while part := math.fsum(terms):
        if not math.isfinite(part):
            raise ValueError("a results table needs finite scores")
        parts.append(part)
        terms.append(-part)
    return sum(map(Fraction, parts), Fraction(0))


def results_table(cells: Iterable[Cell]) -> list[TableRow]:
    """The table over ``cells`` (any order): one row per model with a score, sorted as the
    card shows.

    A model's condition column is the mean over its every answer under that condition; a
    condition outside :data:`~labeler.prompts.CONDITIONS` is not shown, but a score under it
    still gives its model a row (of ``—``), as the card has always had. ``grounded`` and
    ``recited`` take the items with a score under both ``told`` and ``no-image``; an item
    answered twice under one condition counts as its answers' mean.
    """
    scores: dict[str, dict[str, dict[str, list[float]]]] = {}  # model -> condition -> item
    for item_id, model, condition, f1 in cells:
        if f1 is None or f1 != f1:
            continue
        by_condition = scores.setdefault(model, {})
        if condition in CONDITIONS:
            by_condition.setdefault(condition, {}).setdefault(item_id, []).append(f1)
    rows = [TableRow(model, _values(scores[model])) for model in scores]
    return sorted(rows, key=_order)


def _values(by_condition: dict[str, dict[str, list[float]]]) -> dict[str, float | None]:
    values: dict[str, float | None] = {}
    for condition in CONDITIONS:
        answers = [f1 for item in by_condition.get(condition, {}).values() for f1 in item]
        values[condition] = _percent(exact_sum(answers), len(answers)) if answers else None
    told, no_image = by_condition.get("told", {}), by_condition.get("no-image", {})
    both = told.keys() & no_image.keys()
    told_sum, no_image_sum = _paired_sum(told, both), _paired_sum(no_image, both)
    values["grounded"] = _percent(told_sum - no_image_sum, len(both)) if both else None
    values["recited"] = _percent(no_image_sum, told_sum) if told_sum > 0 else None
    return values


def _paired_sum(by_item: dict[str, list[float]], items: Iterable[str]) -> Fraction:
    """The exact sum over ``items`` of each one's score: its answer, or its answers' mean."""
    answers = [by_item[i] for i in items]
    single = exact_sum(a[0] for a in answers if len(a) == 1)
    return single + sum((exact_sum(a) / len(a) for a in answers if len(a) > 1), Fraction(0))


def _percent(numerator: Fraction, denominator: int | Fraction) -> float:
    """``100 × numerator ÷ denominator``, rounded once: beyond the largest float (a ``told``
    mean so small it is subnormal) that is ±infinity, as float division gives, not an error;
    the card prints it as undefined (:func:`cell_text`)."""
    exact = numerator * 100 / denominator
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


def _order(row: TableRow) -> tuple[bool, float, str]:
    told = row.values["told"]
    return (told is None, -(told or 0.0), row.model)


# -- rendering -------------------------------------------------------------------


def json_number(value: float | None) -> float | None:
    """A JSON-safe number to 0.001: NaN and ±inf (undefined) become ``None``."""
    if value is None or not math.isfinite(value):
        return None
    return round(float(value), 3)


def cell_text(value: float | None, kind: str) -> str:
    """A value as the card prints it: ``55.8%``, ``+17.7`` (grounded), ``71%`` (recited)."""
    if value is None or not math.isfinite(value):
        return "—"
    if round(float(value), 1) == 0:
        value = 0.0  # no "-0.0" from rounding noise
    if kind == "grounded":
        return f"{value:+.1f}"
    if kind == "recited":
        return f"{value:.0f}%"
    return f"{value:.1f}%"


def markdown_lines(table: Sequence[TableRow]) -> list[str]:
    """The card's markdown table (``—`` where a condition was not run), one line a row."""
    lines = ["| Model | " + " | ".join(METRICS) + " |", "|" + "---|" * len(TABLE_COLUMNS)]
    for row in table:
        cells = [cell_text(row.values[c], c) for c in METRICS]
        lines.append(f"| {row.model} | " + " | ".join(cells) + " |")
    return lines


def render_markdown(table: Sequence[TableRow]) -> str:
    return "\n".join(markdown_lines(table)) + "\n"


def render_csv(table: Sequence[TableRow]) -> str:
    """CSV with numbers rounded to 0.1 (empty where a condition was not run)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TABLE_COLUMNS)
    for row in table:
        writer.writerow([row.model, *(_tenths(row.values[c]) for c in METRICS)])
    return out.getvalue()


def _tenths(value: float | None) -> str:
    """``value`` rounded to 0.1 as the CSV has always written it (numpy's ``round``: scale by
    ten, round half to even, scale back; the sign of a zero kept)."""
    if value is None or not math.isfinite(value):
        return ""
    return repr(math.copysign(round(value * 10), value) / 10)


def json_models(table: Sequence[TableRow]) -> list[dict[str, str | float | None]]:
    """One JSON object per row: ``model`` and every metric to 0.001 (``None``: undefined)."""
    return [{"model": r.model} | {c: json_number(r.values[c]) for c in METRICS} for r in table]
