"""The report as text: the card's table and the audits in markdown, or strict JSON.

Undefined numbers (a condition not run, a share over nothing) show as ``—`` in
markdown and ``null`` in JSON, never as zero.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from labeler.prompts import CONDITIONS
from labeler.results_table import TableRow, cell_text, json_models, json_number, markdown_lines


def render_markdown(table: Sequence[TableRow], audit: Mapping[str, Any] | None = None) -> str:
    """The card's markdown table (:func:`labeler.results_table.markdown_lines`), followed by
    an "Audits" section when ``audit`` (from :func:`labeler.analysis.audits`) is given."""
    lines = markdown_lines(table)
    if audit is not None:
        lines += _audit_lines(audit)
    return "\n".join(lines) + "\n"


def _audit_lines(audit: Mapping[str, Any]) -> list[str]:
    paired = ", ".join(f"{m} {n}" for m, n in audit["paired_items"].items())
    lines = [
        "",
        f"grounded and recited compare told with no-image on the same items; items paired: "
        f"{paired or 'none'}",
        "",
        "Marker accuracy — % of the key's marker letters given the right name "
        "(items with markers):",
        "",
    ]
    markers = audit["marker_accuracy"]
    lines += _condition_table(markers) if markers else ["(no item with markers, or no project)"]
    lines += ["", "## Audits", ""]
    share = audit["consensus_absent_share"]
    sections = (
        (
            "Decline rate — % of answers that refuse or say there is no image",
            "decline_rate",
            "(needs answer names or raw text)",
        ),
        (
            "Shuffled-key control — scorer F1 against another item's key beyond the names the "
            "two keys literally share (a sound scorer is near 0)",
            "shuffled_key_control",
            "(needs answer names and at least two items)",
        ),
        (
            "Shared vocabulary — literal-name F1 against another item's key (dataset overlap, "
            "not a scorer fault)",
            "shuffled_key_overlap",
            "(needs answer names and at least two items)",
        ),
    )
    for title, name, missing in sections:
        lines += [f"{title}:", ""]
        lines += _condition_table(audit[name]) if audit[name] else [missing]
        lines.append("")
    consensus = (
        "(needs answer names)"
        if audit["consensus_names"] is None
        else (
            f"{cell_text(share, 'recited')} of {audit['consensus_names']} names given by ≥ 2 models"
        )
    )
    lines.append(f"Consensus names absent from the key: {consensus}")
    return lines


def _condition_table(values: Mapping[str, Mapping[str, float | None]]) -> list[str]:
    lines = ["| Model | " + " | ".join(CONDITIONS) + " |", "|" + "---|" * (len(CONDITIONS) + 1)]
    for model, row in values.items():
        cells = [cell_text(row[c], c) for c in CONDITIONS]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return lines


def render_json(
    table: Sequence[TableRow],
    cis: pd.DataFrame | None = None,
    audit: Mapping[str, Any] | None = None,
) -> str:
    """Strict JSON (no NaN/Infinity): ``{"models": [...], "audits": {...}}``.

    ``models`` has one object per table row; ``ci`` maps each condition and
    grounded to [lo, hi]. ``audits`` (from :func:`labeler.analysis.audits`) is present when given.
    Undefined numbers are ``null``.
    """
    models: list[dict[str, Any]] = json_models(table)
    if cis is not None:
        for entry in models:
            mine = cis[cis["model"] == entry["model"]]
            entry["ci"] = {
                m: None if json_number(lo) is None else [json_number(lo), json_number(hi)]
                for m, lo, hi in zip(mine["metric"], mine["lo"], mine["hi"], strict=True)
            }
    out: dict[str, Any] = {"models": models}
    if audit is not None:
        out["audits"] = audit
    return json.dumps(out, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
