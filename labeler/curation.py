"""Turn a figure region of a document into a stored item.

This is the one function behind ``labeler add-item`` and the GUI's
"Add item" action: open the document, record it as a (private) source, erase
and harvest the clip, and store images and key in one go. Re-erasing with the
curator's edits (text kept, boxes added or rejected) goes through here too, so
the CLI and the GUI can never disagree about what an edit means.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from labeler.erase.edits import EraseEdits
from labeler.errors import LabelerError
from labeler.store import Item, KeyEntry, NewItem, Project
from labeler.store.items import check_marker

Box = tuple[float, float, float, float]
IMAGE_KINDS = {".png": "image", ".jpg": "image", ".jpeg": "image", ".svg": "svg"}


def add_item_from_document(
    project: Project,
    path: str | Path,
    page: int,
    clip: Box | None = None,
    *,
    item: NewItem | None = None,
    password: str | None = None,
    edits: EraseEdits | None = None,
    marker_names: Mapping[str, str] | None = None,
) -> Item:
    """Erase and harvest ``clip`` of ``page`` (1-based) and store it as a draft item.

    ``item`` holds what the curator gives (subject, tier, pattern, dpi, status, notes, key);
    the source, page, clip, images and edits come from the document and the erasure.
    ``edits`` are the curator's erase edits (see :class:`~labeler.erase.edits.EraseEdits`);
    ``marker_names`` maps printed marker letters to the names the curator supplies.
    ``item.key``, when given, is the curator's edited key, stored instead of the harvested
    one in the same transaction (a bad key then stores nothing). The pattern defaults to
    ``C`` when the figure carries markers and ``B`` otherwise.
    """
    from labeler.erase import erase_figure
    from labeler.pdf.document import open_document

    path = Path(path)
    item = item or NewItem()
    edits = edits or EraseEdits()
    doc = open_document(path, password=password)
    try:
        result = erase_figure(doc, page=page, clip=clip, dpi=item.dpi, edits=edits)
        page_count = doc.page_count
    finally:
        doc.close()
    key = item.key
    if key is None:
        key = key_from_labels(result.labels, marker_names or {})
    with project.transaction():
        source = project.sources.add(
            path, kind=IMAGE_KINDS.get(path.suffix.lower(), "pdf"), page_count=page_count
        )
        return project.items.add(
            replace(
                item,
                source_id=source.id,
                page=page,
                clip=tuple(result.clip),
                question_png=result.question_png,
                answer_png=result.answer_png,
                question_pdf=result.question_pdf,
                erase_method=result.method,
                erase_edits=edits.to_json(),
                key=key,
            )
        )


def reerase_item(
    project: Project, item_id: str, edits: EraseEdits, password: str | None = None
) -> tuple[Item, list[KeyEntry]]:
    """Erase the item's clip again with new edits; store the new images.

    The curated key is left alone (the curator may have fixed names by hand);
    the freshly harvested entries are returned so a view can offer them.
    """
    from labeler.erase import erase_figure
    from labeler.pdf.document import open_document

    item = project.items.get(item_id)
    if item.source_id is None or item.page is None:
        raise LabelerError(f"item {item_id} has no source document to erase again")
    source = project.sources.get(item.source_id)
    doc = open_document(source.path, password=password)
    try:
        result = erase_figure(doc, page=item.page, clip=item.clip, dpi=item.dpi, edits=edits)
    finally:
        doc.close()
    item = project.items.set_images(
        item_id,
        question_png=result.question_png,
        answer_png=result.answer_png,
        question_pdf=result.question_pdf,
        erase_method=result.method,
        erase_edits=edits.to_json(),
    )
    return item, key_from_labels(result.labels, {})


def key_from_labels(labels: Sequence[Any], marker_names: Mapping[str, str]) -> list[KeyEntry]:
    """Harvested labels -> key entries; a marker's name comes from ``marker_names``."""
    key = []
    for label in labels:
        name = marker_names.get(label.marker, "") if label.marker else label.text
        key.append(
            KeyEntry(
                name=name,
                bbox=tuple(label.bbox),
                anchor=label.anchor,
                marker=label.marker,
                origin=label.kind,
            )
        )
    return key


def item_as_json(project: Project, item: Item) -> dict[str, Any]:
    """The item with its key as plain JSON (what ``add-item`` prints)."""
    return {
        "id": item.id,
        "page": item.page,
        "clip": list(item.clip) if item.clip else None,
        "subject": item.subject,
        "tier": item.tier,
        "pattern": item.pattern,
        "status": item.status,
        "erase_method": item.erase_method,
        "question": str(project.assets.path(item.question_asset)) if item.question_asset else None,
        "answer": str(project.assets.path(item.answer_asset)) if item.answer_asset else None,
        "key": [
            {
                "name": e.name,
                "bbox": list(e.bbox) if e.bbox else None,
                "anchor": list(e.anchor) if e.anchor else None,
                "marker": e.marker,
                "origin": e.origin,
            }
            for e in project.items.key(item.id)
        ],
    }


# -- key-editing rules (pure: the GUI's key editor and any script share them) ----------


def merge_entries(entries: Sequence[KeyEntry]) -> KeyEntry:
    """Several entries as one label: names joined in order, boxes united.

    A label the harvester broke over lines ("left" / "ventricle") is one name;
    the first anchor and marker found are kept, since one label points once.
    """
    boxes = [e.bbox for e in entries if e.bbox is not None]
    bbox: Box | None = None
    if boxes:
        bbox = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
    return KeyEntry(
        name=" ".join(e.name for e in entries if e.name),
        bbox=bbox,
        anchor=next((e.anchor for e in entries if e.anchor is not None), None),
        marker=next((e.marker for e in entries if e.marker), None),
        origin="manual",
    )


def split_entry(entry: KeyEntry) -> list[KeyEntry]:
    """One entry as several: at commas/semicolons/slashes if present, else at spaces.

    The box is shared out left to right in proportion to each part's length,
    so the overlays stay roughly over their text; the anchor and marker stay
    with the first part. An entry with one word comes back unchanged.
    """
    parts = [p.strip() for p in re.split(r"[,;/]", entry.name) if p.strip()]
    if len(parts) < 2:
        parts = entry.name.split()
    if len(parts) < 2:
        return [entry]
    boxes: list[Box | None] = [None] * len(parts)
    if entry.bbox is not None:
        x0, y0, x1, y1 = entry.bbox
        total = sum(len(p) for p in parts)
        left = x0
        for i, part in enumerate(parts):
            right = x1 if i == len(parts) - 1 else left + (x1 - x0) * len(part) / total
            boxes[i] = (left, y0, right, y1)
            left = right
    return [
        KeyEntry(
            name=part,
            bbox=boxes[i],
            anchor=entry.anchor if i == 0 else None,
            marker=entry.marker if i == 0 else None,
            origin="manual",
        )
        for i, part in enumerate(parts)
    ]


def clean_marker(text: str) -> str | None:
    """A typed marker as stored: ``a)``, ``(b`` or ``C.`` give one capital letter; blank, None.

    Anything else is a :class:`LabelerError` from the store's own rule
    (:func:`labeler.store.items.check_marker`), so typing and importing agree.
    """
    marker = text.strip().rstrip(").").lstrip("(").upper() or None
    check_marker(marker)
    return marker
