"""Turn a figure region of a document into a stored item.

This is the one function behind ``labeler add-item`` and the GUI's
"Add item" action: open the document, record it as a (private) source, erase
and harvest the clip, and store images and key in one go. Re-erasing with the
curator's edits (text kept, boxes added or rejected) goes through here too, so
the CLI and the GUI can never disagree about what an edit means.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from labeler.erase.edits import EraseEdits
from labeler.errors import DuplicateItem, LabelerError
from labeler.readiness import check_residual_labels
from labeler.store import Item, KeyEntry, NewItem, Project, Source
from labeler.store.items import check_marker, clean_alternatives, file_sha256

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
    allow_duplicate: bool = False,
    keep_source_copy: bool = True,
    check: Callable[[], None] | None = None,
) -> Item:
    """Erase and harvest ``clip`` of ``page`` (1-based) and store it as a draft item.

    Without a ``clip`` the region is the page's best proposed figure
    (:func:`~labeler.pdf.figures.propose_figures`, what the GUI offers first), or the whole
    page when nothing on it looks like a figure (a scan, a lone image). A figure that is already
    an item — same document bytes, same page, a region overlapping it by 90 % or more — raises
    :class:`~labeler.errors.DuplicateItem` naming that item, unless ``allow_duplicate``.
    The project keeps its own copy of the document unless ``keep_source_copy`` is false.

    ``item`` holds what the curator gives (subject, tier, pattern, dpi, status, notes, key);
    the source, page, clip, images and edits come from the document and the erasure.
    ``edits`` are the curator's erase edits (see :class:`~labeler.erase.edits.EraseEdits`);
    ``marker_names`` maps printed marker letters to the names the curator supplies.
    ``item.key``, when given, is the curator's edited key, stored instead of the harvested
    one in the same transaction (a bad key then stores nothing). The pattern defaults to
    ``C`` when the figure carries markers and ``B`` otherwise.

    ``check`` is called between the slow steps (after the erasure, after storing) and may
    raise to stop: raised before the store, nothing is stored; after it, the item stays
    with its question not yet read back (marking it ``ready`` reads it then).

    A question that needs OCR to be read back is read from its pixels while it is stored
    (:class:`~labeler.erase.residual.BackgroundRead`); the read is waited for before the
    commit, so if it fails nothing is stored and its error is raised.
    """
    from labeler.erase import erase_figure
    from labeler.erase.residual import BackgroundRead, needs_ocr
    from labeler.pdf.document import open_document

    path = Path(path)
    item = item or NewItem()
    edits = edits or EraseEdits()
    doc = open_document(path, password=password)
    try:
        if clip is None:
            clip = default_clip(doc, page)
        if not allow_duplicate:
            _refuse_duplicate(project, path, page, clip or tuple(doc[page - 1].rect))
        result = erase_figure(doc, page=page, clip=clip, dpi=item.dpi, edits=edits)
        page_count = doc.page_count
        warnings = _damage(doc, page, result, path)
    finally:
        doc.close()
    key = item.key
    if key is None:
        key = key_from_labels(result.labels, marker_names or {})
    if check is not None:
        check()
    reading = BackgroundRead(result.question.rgb) if needs_ocr(result.method) else None
    with project.transaction():
        source = project.sources.add(
            path,
            kind=IMAGE_KINDS.get(path.suffix.lower(), "pdf"),
            page_count=page_count,
            keep_copy=keep_source_copy,
        )
        if warnings[0] != source.warning:
            project.sources.set_warning(source.id, warnings[0])
        stored = project.items.add(
            replace(
                item,
                source_id=source.id,
                page=page,
                clip=result.clip,
                question_png=result.question_png,
                answer_png=result.answer_png,
                question_pdf=result.question_pdf,
                erase_method=result.method,
                erase_edits=edits.to_json(),
                key=key,
            )
        )
        if warnings[1]:
            stored = project.items.set_warning(stored.id, warnings[1])
        lines = reading.lines() if reading is not None else None
    if check is not None:
        check()
    check_residual_labels(project, stored.id, lines=lines)
    return stored


def default_clip(doc: Any, page: int) -> Box | None:
    """The best proposed figure region of a PDF page, or ``None`` (the whole page)."""
    from labeler.pdf.figures import propose_figures

    if not doc.is_pdf:
        return None  # an image or SVG is the figure
    candidates = propose_figures(doc, page)
    return candidates[0].clip if candidates else None


#: Regions overlapping this much (intersection over union) are the same figure.
DUPLICATE_OVERLAP = 0.9


def _refuse_duplicate(project: Project, path: Path, page: int, region: Box) -> None:
    from labeler.pdf.geometry import overlap_share

    source = project.sources.find(file_sha256(path))
    if source is None:
        return
    for other in project.items.on_page(source.id, page):
        if other.clip and overlap_share(other.clip, region) >= DUPLICATE_OVERLAP:
            raise DuplicateItem(
                f"this figure is already item {other.id} (page {page} of {path.name}, the same "
                "region); open that item to change it, or add it again on purpose with "
                "--allow-duplicate",
                other.id,
            )


def reerase_item(
    project: Project,
    item_id: str,
    edits: EraseEdits,
    password: str | None = None,
    expected_version: int | None = None,
) -> tuple[Item, list[KeyEntry]]:
    """Erase the item's clip again with new edits; store the new images.

    The curated key is left alone (the curator may have fixed names by hand);
    the freshly harvested entries are returned so a view can offer them.
    ``expected_version``: refuse (``EditConflict``) if the item changed since it was read.
    """
    from labeler.erase import erase_figure
    from labeler.pdf.document import open_document

    item = project.items.get(item_id)
    if item.source_id is None or item.page is None:
        raise LabelerError(f"item {item_id} has no source document to erase again")
    source = project.sources.get(item.source_id)
    doc = open_document(project.sources.document_path(source), password=password)
    try:
        result = erase_figure(doc, page=item.page, clip=item.clip, dpi=item.dpi, edits=edits)
        warning = _damage(doc, item.page, result, None)[1]
    finally:
        doc.close()
    item = project.items.set_images(
        item_id,
        question_png=result.question_png,
        answer_png=result.answer_png,
        question_pdf=result.question_pdf,
        erase_method=result.method,
        erase_edits=edits.to_json(),
        expected_version=expected_version,
    )
    if warning != item.warning:
        item = project.items.set_warning(item_id, warning)
    check_residual_labels(project, item_id)
    return item, key_from_labels(result.labels, {})


#: The name of an added box nothing could be read under: a prompt the curator overwrites.
UNREAD_NAME = "?"


def key_after_box_edits(
    key: Sequence[KeyEntry],
    before: EraseEdits,
    after: EraseEdits,
    harvested: Sequence[KeyEntry],
) -> list[KeyEntry]:
    """The curated ``key`` updated for the box edits from ``before`` to ``after``.

    Boxes are what the curator sees, so a box edit changes the key as well as the
    image: a box newly rejected or kept printed drops the entry under it, and an
    added box (or a rejected/kept one restored) brings in the entry the re-erase
    harvested there (``harvested``: :func:`key_from_labels` of the new erasure),
    read from the vector text or by OCR. An added box replaces whatever entries it
    covers; one nothing could be read under gets the name :data:`UNREAD_NAME` for the
    curator to type over. Every other entry, with the curator's fixes, is left alone.
    """
    from labeler.pdf.geometry import first_containing

    def new(kind: str, old: EraseEdits, now: EraseEdits) -> list[Box]:
        return [b for b in getattr(now, kind) if b not in getattr(old, kind)]

    gone = [
        *new("removed_boxes", before, after),
        *new("keep", before, after),
        *new("extra_boxes", after, before),  # an added box dropped again
    ]
    added = new("extra_boxes", before, after)
    back = [*added, *new("removed_boxes", after, before), *new("keep", after, before)]
    entries = [
        e for e in key if e.bbox is None or first_containing(e.bbox, [*gone, *added]) is None
    ]
    for box in back:
        found = [e for e in harvested if e.bbox is not None and first_containing(e.bbox, [box])]
        if not found and box in added:
            found = [KeyEntry(name=UNREAD_NAME, bbox=box, origin="manual")]
        entries += [
            e if e.name or e.marker else dataclasses.replace(e, name=UNREAD_NAME)
            for e in found
            if e not in entries
        ]
    return entries


def relink_source(project: Project, source_id: int, path: str | Path) -> Source:
    """Point source ``source_id`` at ``path``, the same document moved or renamed.

    What the GUI's Relink… calls for one chosen source: the file must hold exactly
    the bytes the items were cut from (its sha256), so a different edition, a
    re-saved copy or another book is refused with what to look for instead.
    """
    source = project.sources.get(source_id)
    path = Path(path)
    if not path.is_file():
        raise LabelerError(
            f"{path} is not a file; choose the moved copy of {Path(source.path).name}"
        )
    digest = file_sha256(path)
    if digest != source.sha256:
        raise LabelerError(
            f"{path.name} is not the document source {source_id} was cut from: its bytes differ "
            f"(sha256 {digest[:12]}…, the source's is {source.sha256[:12]}…). Choose the moved "
            f"or renamed copy of {Path(source.path).name} itself, not another edition or a "
            "re-saved file"
        )
    return project.sources.relink(path)


def _damage(doc: Any, page: int, result: Any, path: Path | None) -> tuple[str, str]:
    """(source warning, item warning): damage MuPDF survived silently (labeler/pdf/damage.py),
    and for an SVG ``path`` the features MuPDF draws wrongly."""
    from labeler.pdf.damage import item_warning, source_warning, svg_warning
    from labeler.pdf.limits import mupdf_errors

    with mupdf_errors(doc.name or "the document", f"checking page {page} for damage"):
        found = (source_warning(doc), svg_warning(path) if path else "")
        return "; ".join(w for w in found if w), item_warning(doc[page - 1], result.answer.rgb)


def key_from_labels(labels: Sequence[Any], marker_names: Mapping[str, str]) -> list[KeyEntry]:
    """Harvested labels -> key entries; a marker's name comes from ``marker_names``.

    Each printed text is split into name, alternatives and note
    (:func:`labeler.harvest.label_text.split_labels`): a proposal the curator
    can change in the key editor or with ``labeler items edit-key``.
    """
    from labeler.harvest.label_text import split_labels  # the harvest package loads pymupdf

    texts = [marker_names.get(lb.marker, "") if lb.marker else lb.text for lb in labels]
    key = []
    for label, printed in zip(labels, split_labels(texts), strict=True):
        key.append(
            KeyEntry(
                name=printed.name,
                bbox=tuple(label.bbox),
                anchor=label.anchor,
                marker=label.marker,
                origin=label.kind,
                alternatives=printed.alternatives,
                note=printed.note,
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
        "version": item.version,  # what --expected-version names
        "erase_method": item.erase_method,
        "warnings": item_warnings(project, item),
        "question": str(project.assets.path(item.question_asset)) if item.question_asset else None,
        "answer": str(project.assets.path(item.answer_asset)) if item.answer_asset else None,
        "key": [entry_as_json(e) for e in project.items.key(item.id)],
    }


def entry_as_json(entry: KeyEntry) -> dict[str, Any]:
    """One key entry as plain JSON (``add-item`` and ``items show`` print these)."""
    return {
        "name": entry.name,
        "alternatives": list(entry.alternatives),
        "note": entry.note,
        "bbox": list(entry.bbox) if entry.bbox else None,
        "anchor": list(entry.anchor) if entry.anchor else None,
        "marker": entry.marker,
        "origin": entry.origin,
    }


# -- key-editing rules (pure: the GUI's key editor and any script share them) ----------


def merge_entries(entries: Sequence[KeyEntry]) -> KeyEntry:
    """Several entries as one label: names joined in order, boxes united.

    A label the harvester broke over lines ("left" / "ventricle") is one name;
    the first anchor and marker found are kept, since one label points once.
    Alternatives and notes of the parts are kept too (in order, repeats once).
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
    name = " ".join(e.name for e in entries if e.name)
    return KeyEntry(
        name=name,
        bbox=bbox,
        anchor=next((e.anchor for e in entries if e.anchor is not None), None),
        marker=next((e.marker for e in entries if e.marker), None),
        origin="manual",
        alternatives=clean_alternatives(name, [a for e in entries for a in e.alternatives]),
        note="; ".join(dict.fromkeys(e.note for e in entries if e.note)),
    )


def split_entry(entry: KeyEntry) -> list[KeyEntry]:
    """One entry as several: at commas/semicolons/slashes if present, else at spaces.

    The box is shared out left to right in proportion to each part's length,
    so the overlays stay roughly over their text; the anchor, marker,
    alternatives and note stay with the first part. An entry with one word comes
    back unchanged.
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
            alternatives=clean_alternatives(part, entry.alternatives) if i == 0 else (),
            note=entry.note if i == 0 else "",
        )
        for i, part in enumerate(parts)
    ]


def edit_entry(
    entry: KeyEntry,
    *,
    name: str | None = None,
    alternatives: Iterable[str] | None = None,
    note: str | None = None,
) -> KeyEntry:
    """The entry with a new name, alternatives and/or note (``None``: unchanged), checked.

    The one rule behind the key editor's cells and ``labeler items edit-key``:
    blanks and repeats are dropped from the alternatives, an entry keeps a name
    or a marker, and the edited entry is the curator's (origin ``manual``).
    """
    name = entry.name if name is None else " ".join(name.split())
    if not name and not entry.marker:
        raise LabelerError("a label needs a name or a marker; delete the row instead")
    return dataclasses.replace(
        entry,
        name=name,
        alternatives=clean_alternatives(
            name, entry.alternatives if alternatives is None else alternatives
        ),
        note=entry.note if note is None else " ".join(note.split()),
        origin="manual",
    )


def tidy_entry(entry: KeyEntry) -> KeyEntry:
    """The entry with alternatives and a note read out of its name, as harvest splits labels.

    For a name the curator typed or pasted whole ("Aorta (cut)" → name "Aorta",
    note "cut"); alternatives and a note the entry already has are kept. A name
    with nothing to split gives the entry back unchanged.
    """
    from labeler.harvest.label_text import split_label

    text = split_label(entry.name)
    if (text.name, text.alternatives, text.note) == (entry.name, (), ""):
        return entry
    return edit_entry(
        entry,
        name=text.name,
        alternatives=[*entry.alternatives, *text.alternatives],
        note="; ".join(n for n in (entry.note, text.note) if n),
    )


def find_entry(entries: Sequence[KeyEntry], which: str) -> int:
    """The index of the entry ``which`` names: a 1-based position, a marker letter or a name.

    A name matches case-insensitively and must be unique in the key; anything
    else is a :class:`LabelerError` listing what the key holds.
    """
    which = which.strip()
    if which.isdigit():
        if 1 <= int(which) <= len(entries):
            return int(which) - 1
        raise LabelerError(f"the key has {len(entries)} entries; {which} is not one of 1…")
    hits = [i for i, e in enumerate(entries) if e.name.casefold() == which.casefold()]
    if not hits and len(which) == 1:
        hits = [i for i, e in enumerate(entries) if e.marker == which.upper()]
    if len(hits) == 1:
        return hits[0]
    names = ", ".join(f"{i}. {e.name or e.marker}" for i, e in enumerate(entries, start=1))
    if hits:
        raise LabelerError(f"{which!r} is in the key {len(hits)} times; give its number ({names})")
    raise LabelerError(f"no key entry {which!r}; the key is: {names or '(empty)'}")


ALTERNATIVES_SEPARATOR = "; "


def parse_alternatives(text: str) -> tuple[str, ...]:
    """Typed alternatives ("eardrum; tympanum") as a tuple; semicolons separate them.

    Not commas: chemical and anatomical names can contain them
    ("1,3-bisphosphoglycerate").
    """
    return tuple(p.strip() for p in text.split(";") if p.strip())


def format_alternatives(alternatives: Iterable[str]) -> str:
    """Alternatives as the curator types them (the inverse of :func:`parse_alternatives`)."""
    return ALTERNATIVES_SEPARATOR.join(alternatives)


def clean_marker(text: str) -> str | None:
    """A typed marker as stored: ``a)``, ``(b`` or ``C.`` give one capital letter; blank, None.

    Anything else is a :class:`LabelerError` from the store's own rule
    (:func:`labeler.store.items.check_marker`), so typing and importing agree.
    """
    marker = text.strip().rstrip(").").lstrip("(").upper() or None
    check_marker(marker)
    return marker
