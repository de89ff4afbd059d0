"""The audit trail of one answer: raw output, usage, cost and parse status."""

from __future__ import annotations

import html

from labeler.review import Override
from labeler.store import Response
from ui.review.cells import Column


def _fmt(value: object, unit: str = "") -> str:
    return "—" if value is None else f"{value}{unit}"


def response_html(
    column: Column,
    response: Response | None,
    earlier: int = 0,
    stale: bool = False,
    override: Override | None = None,
) -> str:
    """A compact HTML summary of ``response`` for a QTextBrowser.

    ``earlier`` is how many older answers the store keeps for the same cell
    (a re-sent call adds a row; the latest is the one scored).
    """
    title = f"<b>{html.escape(column.model)}</b> · {html.escape(column.condition)}"
    if response is None:
        return f"{title}<p>This cell has not been run.</p>"
    usage = (
        f"tokens in {_fmt(response.input_tokens)} · out {_fmt(response.output_tokens)}"
        f" · reasoning {_fmt(response.reasoning_tokens)}"
    )
    cost = "—" if response.cost_usd is None else f"${response.cost_usd:.4f}"
    latency = "—" if response.latency_ms is None else f"{response.latency_ms / 1000:.1f} s"
    image = (
        f"{response.image_width}×{response.image_height} px, {response.image_bytes:,} bytes"
        if response.image_width and response.image_bytes
        else "none"
    )
    rows = [
        ("Status", f"{response.status} (finish: {_fmt(response.finish_reason)})"),
        ("Parsed", "yes" if response.parse_ok else "<span style='color:#dc2626'>no</span>"),
        ("Diagram is", html.escape(response.diagram_is or "—")),
        ("Usage", usage),
        ("Cost · latency", f"{cost} · {latency} · {response.attempts} attempt(s)"),
        ("Image sent", image),
        ("Answered", html.escape(response.created_at)),
    ]
    if stale:
        rows.append(
            ("Stale", "answered for an older subject or image: not exported; a run re-sends it")
        )
    if override is not None:
        text = f"{override.value:g} by {override.reviewer}: {override.reason}"
        rows.append(("Score overridden", html.escape(text) + " (counted instead of the F1)"))
    if earlier:
        rows.append(("History", f"{earlier} earlier answer(s) kept for this cell; latest shown"))
    if response.error:
        rows.append(("Error", f"<span style='color:#dc2626'>{html.escape(response.error)}</span>"))
    table = "".join(
        f"<tr><td style='padding-right:12px'><i>{k}</i></td><td>{v}</td></tr>" for k, v in rows
    )
    raw = html.escape(response.raw_text or "(no text)")
    return f"{title}<table>{table}</table><pre style='white-space:pre-wrap'>{raw}</pre>"
