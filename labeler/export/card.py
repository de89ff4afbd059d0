"""The export's README.md: a Hugging Face dataset card like the reference card.

The YAML front matter declares ``dataset_info.features`` from
:data:`~labeler.export.schema.RESULT_FIELDS` (so ``datasets.load_dataset``
casts every row to exactly those types) and points the default config at
``results.jsonl``. The body's counts and results table are computed from the
exported rows, and the prompts come from :func:`labeler.prompts.build_prompt`,
the same text the runner sends. Nothing time-dependent is written, so
re-exporting unchanged data gives an identical card.

An export with images (``credits`` given) points both configs at parquet
(:mod:`labeler.export.images`), describes the ``items`` config and lists every
licence and attribution line the images fall under.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from labeler.export.card_sections import (
    CardFacts,
    caveats_section,
    citation_section,
    review_section,
)
from labeler.export.images import IMAGE_ITEM_FIELDS, Credit
from labeler.export.rows import Row
from labeler.export.schema import (
    CARD_FILE,
    ITEM_FIELDS,
    ITEMS_FILE,
    ITEMS_PARQUET,
    RESULTS_FILE,
    RESULTS_PARQUET,
    SAMPLE_FILE,
    SAMPLE_ROWS,
    Field,
    result_fields,
)
from labeler.export.settings import DecodeSetting
from labeler.export.summary import ResultsSummary
from labeler.lexicon_sources import ATTRIBUTION
from labeler.prompts import build_prompt
from labeler.results_table import markdown_lines, results_table
from labeler.scoring.rules import DEFAULT_RULES, scoring_version
from labeler.text.counted import counted

TAGS = (
    "benchmark",
    "biology",
    "diagram-understanding",
    "vision-language",
    "no-image-control",
    "grounding",
)
DEFAULT_LICENSE = "cc-by-nc-4.0"

_PROMPT_HEADINGS = {
    "blind": "image attached, subject unknown",
    "told": "image attached, subject disclosed (`{subject}` = per-item string)",
    "desc": "image attached, verbose subject description",
    "no-image": "**no image attached**, subject disclosed — byte-identical to `told` on purpose",
}


@dataclass(frozen=True)
class CardInfo:
    """What the card says about the dataset as a whole."""

    pretty_name: str
    id_prefix: str
    license: str = DEFAULT_LICENSE
    decode: tuple[DecodeSetting, ...] = ()  # labeler.export.settings.decode_settings
    facts: CardFacts = field(default_factory=CardFacts)  # card_sections.card_facts
    slots: str = ""  # the slot conditions' section (labeler.export.slots); "" without slot rows
    prompts: tuple[tuple[str, str], ...] = ()  # (condition, text) actually used; (): the card's


def render_card(
    info: CardInfo,
    results: ResultsSummary | Sequence[Row],
    items: Sequence[Row],
    results_bytes: int,
    credits: Sequence[Credit] | None = None,
) -> str:
    """The full README.md text; ``credits`` only for an export with images.

    ``results`` is the summary the export gathered while writing results.jsonl (or the
    rows themselves, summarised here).
    """
    summary = results if isinstance(results, ResultsSummary) else ResultsSummary.of(results)
    body = _body(info, summary, items, credits) + ATTRIBUTION
    return _front_matter(info, summary.n_rows, results_bytes, credits is not None) + body


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _feature(f: Field) -> list[str]:
    if f.type == "list[string]":
        return [f"    - name: {f.name}", "      sequence: string"]
    return [f"    - name: {f.name}", f"      dtype: {f.type.removesuffix('|null')}"]


def _front_matter(info: CardInfo, n_rows: int, results_bytes: int, images: bool) -> str:
    lines = [
        "---",
        f"license: {_q(info.license)}",
        "task_categories:",
        "  - visual-question-answering",
        "language:",
        "  - en",
        "tags:",
        *(f"  - {t}" for t in TAGS),
        f"pretty_name: {_q(info.pretty_name)}",
        "dataset_info:",
        "  features:",
        *(line for f in result_fields(bool(info.slots)) for line in _feature(f)),
        "  splits:",
        "    - name: train",
        f"      num_bytes: {results_bytes}",
        f"      num_examples: {n_rows}",
        f"  download_size: {results_bytes}",
        f"  dataset_size: {results_bytes}",
        "configs:",
        "  - config_name: default",
        "    data_files:",
        "      - split: train",
        f"        path: {RESULTS_PARQUET if images else RESULTS_FILE}",
        *_items_config(ITEMS_PARQUET if images else ITEMS_FILE),
        "---",
        "",
    ]
    return "\n".join(lines)


def _items_config(path: str) -> list[str]:
    """The ``items`` config: items.jsonl, or with images the parquet that carries them."""
    return [
        "  - config_name: items",
        "    data_files:",
        "      - split: train",
        f"        path: {path}",
    ]


def _schema_table(fields: Sequence[Field]) -> str:
    lines = ["| Field | Type | Description |", "|---|---|---|"]
    lines += [f"| `{f.name}` | {_cell(f.type)} | {_cell(f.description)} |" for f in fields]
    return "\n".join(lines)


def _rules_line() -> str:
    """Which rules and version scored the data (rows keep the card schema either way)."""
    return (
        f"Scored by Labeler with the `{DEFAULT_RULES}` rules, scoring version "
        f"`{scoring_version(DEFAULT_RULES)}`; `labeler score results.jsonl --rules card` "
        "re-scores with the card's own rules below."
    )


def _cell(text: str) -> str:
    """Escape pipes so a type like ``string|null`` stays in one table cell."""
    return text.replace("|", "\\|")


def _results_table(results: ResultsSummary) -> str:
    if not results.n_rows:
        return "No scored responses yet."
    return "\n".join(markdown_lines(results_table(results.table)))


def _prompts(conditions: Sequence[str], used: tuple[tuple[str, str], ...] = ()) -> str:
    """The prompt of every condition the published answers were given under, verbatim, as
    sent: the project's prompt set when it has its own, else the card's."""
    if not conditions:
        return "No answers are published yet, so no prompt was used."
    chosen = dict(used)
    blocks = []
    for condition in conditions:
        text = chosen.get(condition) or build_prompt(condition, "{subject}")
        blocks.append(f"**`{condition}`** — {_PROMPT_HEADINGS[condition]}:")
        blocks.append("```\n" + text + "\n```")
    return "\n\n".join(blocks)


def _images_note(credits: Sequence[Credit] | None) -> str:
    if credits is None:
        return (
            "Source images are not\n"
            "distributed; only scores, predicted names and answer keys are released."
        )
    n = sum(c.n_items for c in credits)
    return (
        f"Every item's question and answer\nimages are included ({counted(n, 'item')}, config "
        "`items`), each under its source's licence: see *Image licences and attribution*."
    )


def _jsonl_config(name: str, credits: Sequence[Credit] | None) -> str:
    """Which config a JSON-lines file is (with images the parquet files are the configs)."""
    return f" (config `{name}`)" if credits is None else ""


def _image_files(credits: Sequence[Credit] | None, n_items: int) -> str:
    if credits is None:
        return ""
    return (
        f"| `{RESULTS_PARQUET}` | The rows of `{RESULTS_FILE}` as parquet (config `default`) |\n"
        f"| `{ITEMS_PARQUET}` | One row per item with its question and answer images "
        f"(config `items`) — {counted(n_items, 'row')} |\n"
    )


def _image_sections(credits: Sequence[Credit] | None) -> str:
    """The ``items`` config's schema and every credit its images' licences require."""
    if credits is None:
        return ""
    lines = [f"| `{c.licence}` | {_cell(c.attribution) or '—'} | {c.n_items} |" for c in credits]
    return f"""
### Schema — config `items` (`{ITEMS_PARQUET}`)

`image` columns load as `datasets.Image` (PNG bytes); pandas reads them as
`{{"bytes", "path"}}` records.

{_schema_table(IMAGE_ITEM_FIELDS)}

### Image licences and attribution

The images keep their sources' licences, whatever this card's licence says. Credit them as
below wherever they are shown; the `licence` and `attribution` columns repeat this per item.

| Licence | Attribution | Items |
|---|---|---|
{chr(10).join(lines)}
"""


def _decode_table(decode: Sequence[DecodeSetting]) -> str:
    """Every model's stored settings; more than one row for a model means mixed routes."""
    if not decode:
        return "No scored responses yet."
    lines = ["| Model | Settings as stored | Answers |", "|---|---|---|"]
    for d in decode:
        shown = ", ".join(f"`{k}={v}`" for k, v in d.settings) or "not recorded (imported)"
        lines.append(f"| `{d.model}` | {_cell(shown)} | {d.n_responses:,} |")
    mixed = sorted({d.model for d in decode if sum(e.model == d.model for e in decode) > 1})
    if mixed:
        names = ", ".join(f"`{m}`" for m in mixed)
        lines += ["", f"**Mixed settings:** {names} answered with more than one setting set."]
    return "\n".join(lines)


def _body(
    info: CardInfo,
    results: ResultsSummary,
    items: Sequence[Row],
    credits: Sequence[Credit] | None = None,
) -> str:
    models = results.models
    conditions = results.conditions()
    sample = min(SAMPLE_ROWS, results.n_rows)
    n_results = counted(results.n_rows, "row") + _jsonl_config("default", credits)
    n_items = counted(len(items), "row") + _jsonl_config("items", credits)
    scale = (
        f"**{counted(results.n_rows, 'scored response')}** across {counted(len(models), 'model')},"
        f"\n{counted(len(conditions), 'condition')}, and {counted(len(items), 'benchmark item')}"
    )
    return f"""
# {info.pretty_name}

A model is shown an **unlabelled** diagram and must name every part a leader line points to.
The labelled original is the answer key. The `no-image` condition repeats the `told` prompt
with the picture removed: whatever a model still scores there came from memory alone.

## Dataset structure

This dataset contains {scale}. {_images_note(credits)}

### Files

| File | Description |
|---|---|
| `{RESULTS_FILE}` | One row per (item, model, condition) — {n_results} |
| `{ITEMS_FILE}` | One row per benchmark item, with aggregate metadata — {n_items} |
| `{SAMPLE_FILE}` | {sample}-row public preview |
{_image_files(credits, len(items))}| `{CARD_FILE}` | This card |

### Schema — `{RESULTS_FILE}`

{_schema_table(result_fields(bool(info.slots)))}

### Schema — `{ITEMS_FILE}`

{_schema_table(ITEM_FIELDS)}
{_image_sections(credits)}
To re-score exactly, build each item's lexicon from its `lexicon` rows; `synonyms` and
`distinct` list the same knowledge per key name, for reading.

### The four conditions

| Condition | Model receives | Isolates |
|---|---|---|
| `blind` | Unlabelled diagram only | Visual recognition |
| `told` | Diagram + subject name | Naming, given recognition |
| `desc` | Diagram + long subject description | Does verbosity help? |
| `no-image` | Subject name, **no picture** | **Prior knowledge alone — the control** |

```
grounded contribution = told − no-image   (percentage points)
recitation share      = no-image ÷ told   (%)
```

### Prompts — verbatim, as sent

The `condition` column is only reproducible with the exact prompt text. These are the
prompts of the conditions the published answers were given under; they share the same JSON
output schema, and only the opening instruction differs.

{_prompts(conditions, info.prompts)}
{info.slots}
### Decode settings per model

What each published answer was asked with, read from the stored responses (the route and
provider model included; private endpoints left out).

{_decode_table(info.decode)}

## Results

Mean name-set F1 per model and condition; `grounded` in points, `recited` as a share.

{_results_table(results)}

## Review

{review_section(info.facts)}

## Caveats

Computed from the exported data.

{caveats_section(info.facts, results, items, info.decode)}

## Identifiers

Public item IDs (`{info.id_prefix}-N`) are deliberately opaque: they are numbered in the
order of a salted hash of the internal ID, so the numbering does not cluster by source, and
an item keeps its number across releases. The mapping to sources is private.

## Scoring

{_rules_line()}

Responses are scored with a synonym-aware name-set F1: exact and normalised matches,
Latin/Greek plurals, lexicon synonyms, and guarded fuzzy matching (≥7 characters, first 3
identical, ≤3 length difference, ≥0.86 similarity); `distinct` lexicon rows veto plural,
synonym and fuzzy matches. `unsolved_core` is true when no model reached F1 = 1 in any
condition; `recitable` when at least one model reached F1 ≥ 0.5 under `no-image`.

## Citation

{citation_section(info.facts.citation)}
"""
