"""Plain records read from and written to the project store.

They are frozen dataclasses so views can hold them without aliasing bugs;
an edit is a call on :class:`~labeler.store.project.Project` that returns
a new record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from labeler.usage import Usage

# PDF points, top-left origin, like labeler.pdf.geometry.Box (the store sits below pdf, so it
# names the type itself); the store keeps no pixel boxes.
Box = tuple[float, float, float, float]
Point = tuple[float, float]

TIERS = ("core", "extended")
PATTERNS = ("A", "B", "C")
STATUSES = ("draft", "ready", "excluded")
#: A source's licence. Only the first four let an export carry the source's images; the
#: default is the safe one, since nobody may redistribute a figure until someone says so.
REDISTRIBUTABLE = ("cc-by-4.0", "cc-by-sa-4.0", "cc-by-3.0", "public-domain")
NOT_REDISTRIBUTABLE = "not-redistributable"
LICENCES = (*REDISTRIBUTABLE, NOT_REDISTRIBUTABLE)


@dataclass(frozen=True)
class Source:
    """A document figures come from. Its path and title are private provenance.

    ``copy_asset`` is the project's own copy of the document's bytes (an asset key), kept so
    a moved, renamed or deleted original never breaks an item; ``None`` when the curator opted
    out (huge files) or the source predates copies.
    """

    id: int
    path: str
    sha256: str
    kind: str
    page_count: int
    title: str
    added_at: str
    copy_asset: str | None = None
    warning: str = ""  # damage MuPDF repaired on opening (labeler/pdf/damage.py)
    licence: str = NOT_REDISTRIBUTABLE  # one of LICENCES
    attribution: str = ""  # the credit line the licence asks for, shown in an export's card


@dataclass(frozen=True)
class KeyEntry:
    """One answer-key name, with where it was printed and what it points at.

    ``alternatives`` are other names of the same part printed with it ("eardrum"
    for "Tympanic membrane (eardrum)"): answers using them are correct, so they
    score as ``same`` synonyms of ``name`` for this item. ``note`` is printed text
    that is not a name ("cut", "I-XII"); it is shown to curators, never scored.
    """

    name: str
    bbox: Box | None = None
    anchor: Point | None = None
    marker: str | None = None
    origin: str = "manual"
    alternatives: tuple[str, ...] = ()
    note: str = ""


def alternative_rows(entries: Iterable[KeyEntry]) -> tuple[tuple[str, str, str], ...]:
    """The key's alternatives as per-item lexicon rows ``(name, alternative, "same")``."""
    return tuple((e.name, alt, "same") for e in entries if e.name for alt in e.alternatives)


@dataclass(frozen=True)
class Item:
    """A benchmark item: a figure region, its erased/original images and metadata."""

    id: str
    source_id: int | None
    page: int | None
    clip: Box | None
    subject: str
    tier: str
    pattern: str
    status: str
    notes: str
    dpi: int
    question_asset: str | None
    answer_asset: str | None
    question_pdf_asset: str | None
    erase_method: str
    erase_edits: dict[str, Any]
    created_at: str
    updated_at: str
    warning: str = ""  # its page lost its text or renders blank (labeler/pdf/damage.py)
    version: int = 1  # +1 on every write; a write naming an older version is an EditConflict


@dataclass(frozen=True)
class NewItem:
    """What a curator, an importer or a script hands the store to create an item.

    Ids and timestamps are added there. None means "not given": ``pattern`` then follows
    the curator's rule (C when the key has markers, else B), ``key`` is empty (curation
    harvests one instead) and ``item_id`` is drawn fresh.
    """

    source_id: int | None = None
    page: int | None = None
    clip: Box | None = None
    subject: str = ""
    tier: str = "extended"
    pattern: str | None = None
    status: str = "draft"
    notes: str = ""
    dpi: int = 200
    question_png: bytes | None = None
    answer_png: bytes | None = None
    question_pdf: bytes | None = None
    erase_method: str = ""
    erase_edits: dict[str, Any] = field(default_factory=dict)  # EraseEdits.to_json()
    key: Sequence[KeyEntry] | None = None
    item_id: str | None = None

    @property
    def resolved_pattern(self) -> str:
        """The pattern stored: as given, or C when the key has markers, else B."""
        if self.pattern is not None:
            return self.pattern
        return "C" if any(entry.marker for entry in self.key or ()) else "B"


@dataclass(frozen=True)
class Response:
    """One model answer for one (item, model, condition) cell, with its audit trail."""

    id: int
    item_id: str
    model: str
    condition: str
    request_hash: str
    status: str
    finish_reason: str | None
    raw_text: str | None
    diagram_is: str | None
    labels: list[dict[str, str]]
    parse_ok: bool
    input_tokens: int | None
    output_tokens: int | None
    reasoning_tokens: int | None
    latency_ms: float | None
    attempts: int
    cost_usd: float | None
    settings: dict[str, Any]
    image_width: int | None
    image_height: int | None
    image_bytes: int | None
    error: str | None
    run_id: int | None
    origin: str
    created_at: str
    asked_subject: str | None = None  # the item's subject when this answer was stored
    asked_image: str | None = None  # the item's question image asset then
    parse_notes: str | None = None  # how the parser read the answer (repairs, drafts skipped)
    prompt_sha256: str | None = None  # sha256 of the prompt text asked (None: stored before it)

    @property
    def usage(self) -> Usage:
        """The stored token counts as the record the providers report."""
        return Usage(self.input_tokens, self.output_tokens, self.reasoning_tokens)

    @property
    def predicted_names(self) -> list[str]:
        """The names the model gave, in its order (what the scorer sees)."""
        return [str(label.get("name", "")).strip() for label in self.labels if label.get("name")]


@dataclass(frozen=True)
class NewResponse:
    """What a runner or an importer hands the store; ids and timestamps are added there."""

    item_id: str
    model: str
    condition: str
    request_hash: str
    status: str
    finish_reason: str | None = None
    raw_text: str | None = None
    diagram_is: str | None = None
    labels: list[dict[str, str]] = field(default_factory=list)
    parse_ok: bool = False
    usage: Usage = field(default_factory=Usage)  # stored as three token columns
    latency_ms: float | None = None
    attempts: int = 1
    cost_usd: float | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    image_width: int | None = None
    image_height: int | None = None
    image_bytes: int | None = None
    error: str | None = None
    run_id: int | None = None
    origin: str = "run"
    parse_notes: str | None = None
    prompt_sha256: str | None = None  # labeler.prompts.prompt_sha256 of the text sent


def dumps(value: Any) -> str:
    """Stable JSON for columns: sorted keys, no whitespace noise."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
