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
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.store import Item, KeyEntry, Project
from labeler.store.items import check_marker

Box = tuple[float, float, float, float]
IMAGE_KINDS = {".png": "image", ".jpg": "image", ".jpeg": "image", ".svg": "svg"}


def add_item_from_document(
    project: Project,
    path: str | Path,
    page: int,
    clip: Box | None = None,
    *,
    subject: str = "",
    tier: str = "extended",
    pattern: str | None = None,
    dpi: int = 200,
    password: str | None = None,
    edits: Mapping[str, Sequence[Any]] | None = None,
    marker_names: Mapping[str, str] | None = None,
    key: Sequence[KeyEntry] | None = None,
) -> Item:
    """Erase and harvest ``clip`` of ``page`` (1-based) and store it as a draft item.

    ``edits`` holds the curator's erase edits (``keep``, ``extra_boxes``,
    ``removed_boxes``: boxes; ``mask_strokes``: painted strokes, see
    :func:`labeler.erase.erase_figure`); ``marker_names`` maps printed marker letters to the
    names the curator supplies. ``key``, when given, is the curator's edited key,
    stored instead of the harvested one in the same transaction (a bad key then
    stores nothing). The pattern defaults to ``C`` when the figure carries
    markers and ``B`` otherwise.
    """
    from labeler.erase import erase_figure
    from labeler.pdf.document import open_document

    path = Path(path)
    doc = open_document(path, password=password)
    try:
        result = erase_figure(doc, page=page, clip=clip, dpi=dpi, **_edit_kwargs(edits))
        page_count = doc.page_count
        warnings = _damage(doc, page, result)
    finally:
        doc.close()
    if key is None:
        key = key_from_labels(result.labels, marker_names or {})
    if pattern is None:
        pattern = "C" if any(entry.marker for entry in key) else "B"
    with project.transaction():
        source = project.sources.add(
            path, kind=IMAGE_KINDS.get(path.suffix.lower(), "pdf"), page_count=page_count
        )
        if warnings[0] != source.warning:
            project.sources.set_warning(source.id, warnings[0])
        item = project.items.add(
            source_id=source.id,
            page=page,
            clip=tuple(result.clip),
            subject=subject,
            tier=tier,
            pattern=pattern,
            dpi=dpi,
            question_png=result.question_png,
            answer_png=result.answer_png,
            question_pdf=result.question_pdf,
            erase_method=result.method,
            erase_edits=_edits_json(edits),
            key=key,
        )
        return project.items.set_warning(item.id, warnings[1]) if warnings[1] else item


def reerase_item(
    project: Project, item_id: str, edits: Mapping[str, Sequence[Any]], password: str | None = None
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
        result = erase_figure(
            doc, page=item.page, clip=item.clip, dpi=item.dpi, **_edit_kwargs(edits)
        )
        warning = _damage(doc, item.page, result)[1]
    finally:
        doc.close()
    item = project.items.set_images(
        item_id,
        question_png=result.question_png,
        answer_png=result.answer_png,
        question_pdf=result.question_pdf,
        erase_method=result.method,
        erase_edits=_edits_json(edits),
    )
    if warning != item.warning:
        item = project.items.set_warning(item_id, warning)
    return item, key_from_labels(result.labels, {})


def _damage(doc: Any, page: int, result: Any) -> tuple[str, str]:
    """(source warning, item warning): damage MuPDF survived silently (labeler/pdf/damage.py)."""
    from labeler.pdf.damage import item_warning, source_warning
    from labeler.pdf.limits import mupdf_errors

    with mupdf_errors(doc.name or "the document", f"checking page {page} for damage"):
        return source_warning(doc), item_warning(doc[page - 1], result.answer_png)


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


def item_warnings(project: Project, item: Item) -> list[str]:
    """What is damaged in the item's source and figure (empty for a clean item)."""
    source = project.sources.get(item.source_id) if item.source_id is not None else None
    return [w for w in (source.warning if source else "", item.warning) if w]


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
        "warnings": item_warnings(project, item),
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


BOX_EDITS = ("keep", "extra_boxes", "removed_boxes")


def _edit_kwargs(edits: Mapping[str, Sequence[Any]] | None) -> dict[str, tuple[Any, ...]]:
    """The edits as ``erase_figure`` keyword arguments, checked (bad input: a clear error)."""
    from labeler.erase.mask import parse_strokes

    edits = edits or {}
    unknown = set(edits) - {*BOX_EDITS, "mask_strokes"}
    if unknown:
        raise LabelerError(f"unknown erase edit(s): {', '.join(sorted(unknown))}")
    kwargs: dict[str, tuple[Any, ...]] = {
        k: tuple(tuple(b) for b in edits.get(k, ())) for k in BOX_EDITS
    }
    kwargs["mask_strokes"] = tuple(
        s.to_json() for s in parse_strokes(edits.get("mask_strokes", ()))
    )
    return kwargs


def _edits_json(edits: Mapping[str, Sequence[Any]] | None) -> dict[str, list[Any]]:
    return {
        k: [s if k == "mask_strokes" else list(s) for s in v]
        for k, v in _edit_kwargs(edits).items()
        if v
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
