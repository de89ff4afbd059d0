"""Slot accuracy from the store: each slot answer scored, and the per-model comparisons.

One row per counted answer under ``slots`` or ``slots-no-image`` (the cells
:func:`labeler.results.counted_results` keeps, so the same answers count here as
everywhere), scored against the key entries that answer was asked about: the slot order is
stored with the answer (``settings["slot_order"]``), so a later reorder never re-scores an
old answer against new numbers. Each row also has the same answer's name-set F1 and the
chance level of its names placed at random.

:func:`slot_table` is what the Leaderboard and ``labeler report`` show, per model: slot
accuracy under both conditions, the gap between them (the slot-grounded contribution, in
points, paired over items), name-set F1 minus slot accuracy on the same ``slots`` answers
(vocabulary known vs placed), each with a paired bootstrap CI.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from labeler.prompts import SLOT_CONDITIONS
from labeler.results import CellSummaries, ScoredCell, cell_summaries, project_lexicon
from labeler.scoring.slots import SlotLabel, SlotScore, chance_accuracy, slot_accuracy
from labeler.slots import Slot, entry_boxes, has_printed_markers, render_slots
from labeler.store import KeyEntry, Project, Response

if TYPE_CHECKING:
    import pandas as pd

#: Columns of :func:`slot_table` (accuracies and F1 in %, gaps in points).
SLOT_METRICS: tuple[str, ...] = ("slots", "slots-no-image", "slot_gap", "chance", "f1_minus_slots")


@dataclass(frozen=True)
class SlotCell:
    """One counted slot answer, scored: slot accuracy, name-set F1, chance level."""

    item_id: str
    public_id: str | None
    model: str
    condition: str
    response_id: int
    slots: SlotScore
    f1: float
    chance: float

    @property
    def accuracy(self) -> float:
        return self.slots.accuracy


def answer_key(response: Response, entries: Sequence[KeyEntry]) -> dict[str, str] | None:
    """mark → key name for the slots ``response`` was asked about; None if they are gone.

    The marks are 1…n in the stored order, or the entries' printed markers.
    """
    order = response.settings.get("slot_order")
    if not isinstance(order, list) or not order:
        return None
    if any(not isinstance(i, int) or not 0 <= i < len(entries) for i in order):
        return None
    chosen = [entries[i] for i in order]
    if any(not e.name for e in chosen):
        return None
    marked = has_printed_markers(entries)
    return {(e.marker or "") if marked else str(n): e.name for n, e in enumerate(chosen, 1)}


def slot_labels(response: Response) -> list[SlotLabel]:
    """``(name, location_hint, marker)`` of each named label, in the answer's order."""
    return [
        (str(x.get("name", "")), str(x.get("location_hint", "") or ""), str(x.get("marker", "")))
        for x in response.labels
        if x.get("name")
    ]


@dataclass(frozen=True)
class AnsweredSlots:
    """One slot answer as Review shows it: the slots it was asked, scored, and the image."""

    slots: tuple[Slot, ...]
    score: SlotScore
    png: bytes


def answered_slots(project: Project, response: Response) -> AnsweredSlots | None:
    """The slots ``response`` was asked about (its own numbering), scored, with the slot
    image drawn for that numbering; None if it is not a slot answer or its slots are gone."""
    if response.condition not in SLOT_CONDITIONS:
        return None
    key = answer_key(response, project.items.key(response.item_id))
    if key is None:
        return None
    order = response.settings["slot_order"]
    boxes = entry_boxes(project, response.item_id)
    slots = tuple(
        Slot(mark, i, name, boxes.get(i))
        for (mark, name), i in zip(key.items(), order, strict=True)
    )
    item = project.items.get(response.item_id)
    if not item.question_asset:
        return None
    question = project.assets.read(item.question_asset)
    marked = has_printed_markers(project.items.key(response.item_id))
    png = question if marked else render_slots(question, slots)
    lexicon = project_lexicon(project, response.item_id)
    return AnsweredSlots(slots, slot_accuracy(slot_labels(response), key, lexicon), png)


def slot_results(
    project: Project,
    item_ids: Iterable[str] | None = None,
    counted: Sequence[ScoredCell] | None = None,
    summaries: CellSummaries | None = None,
) -> list[SlotCell]:
    """Every counted slot answer, scored (answers whose slots no longer exist are left out).

    ``counted`` is the caller's :func:`counted_results` for the same items, if it has them:
    a report or export then reads the project's cells once, not twice. Without it the
    summary read path (:func:`cell_summaries`) gives the same cells without result objects;
    ``summaries`` is the caller's own such read (or :func:`cell_columns`) of the same items.
    """
    if counted is not None:
        cells = [
            (c.item_id, c.public_id, c.model, c.condition, c.response_id, c.f1)
            for c in counted
            if c.condition in SLOT_CONDITIONS
        ]
        keys = project.items.keys() if cells else {}
    else:
        if summaries is None:  # the numbers counted_results gives
            summaries = cell_summaries(project, item_ids)
        cells = [
            (item_id, summaries.public_ids.get(item_id), model, condition, response_id, f1)
            for item_id, model, condition, response_id, f1, counts in zip(
                summaries.item_id,
                summaries.model,
                summaries.condition,
                summaries.response_id,
                summaries.f1,
                summaries.counts,
                strict=True,
            )
            if counts and condition in SLOT_CONDITIONS
        ]
        keys = summaries.keys
    if not cells:
        return []
    wanted = {c[4] for c in cells}
    responses = {
        r.id: r
        for r in project.responses.latest(
            item_ids=sorted({c[0] for c in cells}), conditions=SLOT_CONDITIONS
        )
        if r.id in wanted
    }
    lexicons = {i: project_lexicon(project, i) for i in {c[0] for c in cells}}
    found = []
    for item_id, public_id, model, condition, response_id, f1 in cells:
        response = responses[response_id]
        key = answer_key(response, keys.get(item_id, []))
        if key is None:
            continue
        labels = slot_labels(response)
        lexicon = lexicons[item_id]
        found.append(
            SlotCell(
                item_id,
                public_id,
                model,
                condition,
                response_id,
                slot_accuracy(labels, key, lexicon),
                f1,
                chance_accuracy(labels, key, lexicon),
            )
        )
    return found


def slot_frame(cells: Sequence[SlotCell]) -> pd.DataFrame:
    """One row per slot answer: ``item_id, model, condition, slot_accuracy, f1, chance``."""
    import pandas as pd

    return pd.DataFrame(
        [(c.item_id, c.model, c.condition, c.accuracy, c.f1, c.chance) for c in cells],
        columns=["item_id", "model", "condition", "slot_accuracy", "f1", "chance"],
    )


def slot_table(
    frame: pd.DataFrame, n_boot: int = 2000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Per model × :data:`SLOT_METRICS`: ``model, metric, estimate, lo, hi`` (paired CIs).

    ``frame`` has a row per slot answer (:func:`slot_frame`, or an export's rows with
    ``slot_accuracy``; ``chance`` may be missing). ``slot_gap`` = slots − slots-no-image
    over items asked both ways; ``f1_minus_slots`` = name-set F1 − slot accuracy of the
    same ``slots`` answers; ``chance`` = the expected accuracy of the ``slots-no-image``
    answers' names placed at random. Empty when no row is a slot answer.
    """
    import numpy as np
    import pandas as pd

    from labeler.analysis import paired_bootstrap

    columns = ["model", "metric", "estimate", "lo", "hi"]
    if "slot_accuracy" not in frame.columns:
        return pd.DataFrame(columns=columns)
    frame = frame[frame["condition"].isin(SLOT_CONDITIONS)]
    if "chance" not in frame.columns:
        frame = frame.assign(chance=np.nan)
    values = ["slot_accuracy", "f1", "chance"]
    wanted = pd.MultiIndex.from_product([values, SLOT_CONDITIONS])
    rng = np.random.default_rng(seed)
    records = []
    for model, part in frame.groupby("model", sort=True):
        part = part.assign(**{v: pd.to_numeric(part[v], errors="coerce") for v in values})
        wide = part.pivot_table(
            index="item_id", columns="condition", values=values, aggfunc="mean", dropna=False
        ).reindex(columns=wanted)
        acc = wide["slot_accuracy"] * 100
        matrix = np.column_stack(
            [
                acc["slots"],
                acc["slots-no-image"],
                acc["slots"] - acc["slots-no-image"],
                wide["chance"]["slots-no-image"] * 100,
                wide["f1"]["slots"] * 100 - acc["slots"],
            ]
        )
        estimates, lo, hi = paired_bootstrap(matrix, rng, n_boot, level)
        for j, metric in enumerate(SLOT_METRICS):
            records.append((model, metric, estimates[j], lo[j], hi[j]))
    return pd.DataFrame.from_records(records, columns=columns)


def slot_json(table: pd.DataFrame) -> dict[str, dict[str, dict[str, float | None]]]:
    """model → metric → ``{estimate, lo, hi}`` (None where not run): ``labeler report``'s json."""
    import math

    out: dict[str, dict[str, dict[str, float | None]]] = {}
    for row in table.itertuples(index=False):
        out.setdefault(str(row.model), {})[str(row.metric)] = {
            k: None if math.isnan(v) else round(float(v), 2)
            for k, v in (("estimate", row.estimate), ("lo", row.lo), ("hi", row.hi))
        }
    return out


def render_slot_markdown(table: pd.DataFrame) -> str:
    """The slot table as markdown: one row per model, ``estimate [lo, hi]`` per metric."""
    if table.empty:
        return ""
    head = (
        "### Numbered slots (outside the card's four conditions)\n\n"
        "Slot accuracy (%) with paired 95% bootstrap CIs: `slots` asks what is at each number\n"
        "on the figure, `slots-no-image` the same without the figure (the control); the gap\n"
        "is what the figure added, in points; chance is the control's names placed at random;\n"
        "F1 − slots is the same `slots` answers' name-set F1 minus their slot accuracy\n"
        "(vocabulary known but not placed).\n\n"
        "| Model | slots | slots-no-image | gap (pts) | chance | F1 − slots (pts) |\n"
        "|---|---|---|---|---|---|"
    )
    lines = [head]
    for model, part in table.groupby("model", sort=True):
        row = part.set_index("metric")
        cells = [_ci(row.loc[m]) for m in SLOT_METRICS]
        lines.append(f"| {model} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _ci(row: pd.Series) -> str:
    import math

    if math.isnan(row["estimate"]):
        return "—"
    return f"{row['estimate']:.1f} [{row['lo']:.1f}, {row['hi']:.1f}]"
