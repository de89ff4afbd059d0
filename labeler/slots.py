"""Numbered-slot questions: the erased figure with a number where each erased label was.

Name-set F1 cannot tell a model that read the leader lines from one that recited the
textbook's vocabulary. Labeler knows every erased label's box, so it can ask *what is at
number 3?* (decision 0022). Each named key entry with a box becomes a slot, numbered 1…n in
reading order (rows top to bottom, left to right in a row); the number is drawn small and
legible inside that entry's box, where the label was, so the leader line still points from
it. For items whose key prints markers (pattern C) the printed markers are the slots: the
question image is asked as it is and the slots are named by their letters.

A curator may reorder or drop slots (:func:`set_slot_order`, undone by setting the order it
returns); the order is stored for the key geometry it was made for, and a key whose boxes or
markers changed since falls back to reading order rather than numbering the wrong labels.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from labeler.errors import LabelerError
from labeler.store import Item, KeyEntry, Project

if TYPE_CHECKING:
    from labeler.pdf.geometry import PixelBox  # a type alias: no pymupdf import at run time

#: Height of a drawn number in pixels: at least legible, at most a label's size.
MIN_DIGIT_PX = 14
MAX_DIGIT_PX = 30


@dataclass(frozen=True)
class Slot:
    """One slot: its mark (``"3"``, or a printed marker ``"B"``) and the key entry it asks.

    ``position`` indexes the item's key (:meth:`ItemTable.key`); ``box`` is where the mark
    is, in pixels of the question image (None for a marker whose entry has no box).
    """

    mark: str
    position: int
    name: str
    box: PixelBox | None


@dataclass(frozen=True)
class SlotQuestion:
    """An item's slots and the image asked with them (PNG bytes)."""

    item_id: str
    slots: tuple[Slot, ...]
    png: bytes
    printed_markers: bool  # the marks are the figure's own letters; nothing was drawn

    @property
    def marks(self) -> tuple[str, ...]:
        """The marks in slot order (what the slot prompt lists)."""
        return tuple(s.mark for s in self.slots)

    def key(self) -> dict[str, str]:
        """mark → key name: what slot accuracy scores against."""
        return {s.mark: s.name for s in self.slots}


def key_digest(entries: Sequence[KeyEntry]) -> str:
    """A digest of the key's geometry and markers (not its names: renaming keeps the order)."""
    shape = [(e.bbox, e.marker) for e in entries]
    return hashlib.sha256(json.dumps(shape).encode("utf-8")).hexdigest()[:16]


def has_printed_markers(entries: Sequence[KeyEntry]) -> bool:
    """Whether the key's slots are its printed markers (any named entry with a marker)."""
    return any(e.marker and e.name for e in entries)


def candidates(entries: Sequence[KeyEntry]) -> list[int]:
    """Positions of the entries that can be slots: named, and boxed (or marked)."""
    marked = has_printed_markers(entries)
    return [
        i
        for i, e in enumerate(entries)
        if e.name.strip() and (e.marker if marked else e.bbox is not None)
    ]


def reading_order(entries: Sequence[KeyEntry]) -> list[int]:
    """The default slot order: printed markers in their own order, else boxes by rows.

    A box joins the current row when its centre is within half the median box height of
    the row's first centre; rows go top to bottom, a row left to right. Ties keep key order,
    so the numbering is stable for the same key.
    """
    positions = candidates(entries)
    if has_printed_markers(entries):
        return sorted(positions, key=lambda i: _natural(entries[i].marker or ""))
    boxes = {i: entries[i].bbox for i in positions}
    heights = sorted(b[3] - b[1] for b in boxes.values() if b is not None)
    tolerance = heights[len(heights) // 2] / 2 if heights else 0.0
    by_y = sorted(positions, key=lambda i: (_cy(entries[i]), i))
    rows: list[list[int]] = []
    for i in by_y:
        if rows and _cy(entries[i]) - _cy(entries[rows[-1][0]]) <= tolerance:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda j: (_cx(entries[j]), j))]


def _cy(entry: KeyEntry) -> float:
    assert entry.bbox is not None
    return (entry.bbox[1] + entry.bbox[3]) / 2


def _cx(entry: KeyEntry) -> float:
    assert entry.bbox is not None
    return (entry.bbox[0] + entry.bbox[2]) / 2


def _natural(text: str) -> tuple[tuple[int, str], ...]:
    return tuple(
        (int(p), "") if p.isdigit() else (0, p.upper()) for p in re.findall(r"\d+|\D+", text)
    )


def slot_order(project: Project, item_id: str) -> list[int]:
    """The item's slot order: the curator's if it still fits the key, else reading order."""
    entries = project.items.key(item_id)
    stored = project.slot_orders.get(item_id)
    if stored is None or stored.key_digest != key_digest(entries):
        return reading_order(entries)
    allowed = set(candidates(entries))
    order = [i for i in stored.order if i in allowed]
    new = [i for i in reading_order(entries) if i not in order and i not in stored.dropped]
    return order + new


def set_slot_order(project: Project, item_id: str, order: Sequence[int] | None) -> list[int]:
    """Number ``item_id``'s slots in ``order`` (key positions; left out: dropped).

    ``None`` returns to reading order. Returns the order that was in force before, so an
    undo is ``set_slot_order(project, item_id, previous)``. A position that is not a slot
    candidate (unnamed, unboxed, out of range) or that repeats is refused.
    """
    entries = project.items.key(item_id)
    previous = slot_order(project, item_id)
    if order is None:
        project.slot_orders.clear(item_id)
        return previous
    allowed = candidates(entries)
    bad = [i for i in order if i not in allowed]
    if bad:
        raise LabelerError(
            f"{item_id}: key entries {bad} cannot be slots (a slot needs a named entry with a"
            f" box{' and a marker' if has_printed_markers(entries) else ''}); slots: {allowed}"
        )
    if len(set(order)) != len(order):
        raise LabelerError(f"{item_id}: a key entry may be numbered once; got {list(order)}")
    if not order:
        raise LabelerError(f"{item_id}: keep at least one slot (or set the item's status instead)")
    dropped = tuple(i for i in allowed if i not in order)
    project.slot_orders.set(item_id, tuple(order), dropped, key_digest(entries))
    return previous


def item_slots(project: Project, item_id: str) -> list[Slot]:
    """The item's slots in order, each with its mark and box in question-image pixels."""
    entries = project.items.key(item_id)
    marked = has_printed_markers(entries)
    boxes = entry_boxes(project, item_id)
    return [
        Slot(str(entries[i].marker) if marked else str(n), i, entries[i].name, boxes.get(i))
        for n, i in enumerate(slot_order(project, item_id), start=1)
    ]


def entry_boxes(project: Project, item_id: str) -> dict[int, PixelBox]:
    """Key position → its box in question-image pixels, for every boxed entry."""
    item = project.items.get(item_id)
    size = _image_size(project, item)
    if size is None:
        return {}
    entries = project.items.key(item_id)
    return {i: _pixels(e.bbox, item, size) for i, e in enumerate(entries) if e.bbox is not None}


def slot_question(project: Project, item_id: str) -> SlotQuestion | None:
    """The slot question of an item: its slots and the image with their numbers drawn.

    None when the item has no question image or no slot (nothing to ask).
    """
    item = project.items.get(item_id)
    if not item.question_asset:
        return None
    slots = item_slots(project, item_id)
    if not slots:
        return None
    question = project.assets.read(item.question_asset)
    marked = has_printed_markers(project.items.key(item_id))
    png = question if marked else render_slots(question, slots)
    return SlotQuestion(item_id, tuple(slots), png, marked)


def _image_size(project: Project, item: Item) -> tuple[int, int] | None:
    if not item.question_asset:
        return None
    from PIL import Image

    with Image.open(io.BytesIO(project.assets.read(item.question_asset))) as image:
        return image.size


def _pixels(bbox: tuple[float, float, float, float], item: Item, size: tuple[int, int]) -> PixelBox:
    """A key box (page points) in pixels of the question image rendered from the item's clip."""
    width, height = size
    if item.clip is None:
        sx = sy = item.dpi / 72.0
        ox = oy = 0.0
    else:
        ox, oy, x1, y1 = item.clip
        sx, sy = width / (x1 - ox), height / (y1 - oy)
    x0 = max(0, int((bbox[0] - ox) * sx))
    y0 = max(0, int((bbox[1] - oy) * sy))
    return (
        x0,
        y0,
        min(width, int((bbox[2] - ox) * sx + 0.999)),
        min(height, int((bbox[3] - oy) * sy + 0.999)),
    )


def render_slots(question_png: bytes, slots: Sequence[Slot]) -> bytes:
    """``question_png`` with each slot's number drawn inside its box (black on a white halo).

    The number is as tall as the box allows (between :data:`MIN_DIGIT_PX` and
    :data:`MAX_DIGIT_PX`), centred in the box and never drawn outside it, so the figure
    outside the erased boxes (its leader lines) is left exactly as it was. OpenCV's
    Hershey stroke font: plain print that OCR (and a model) reads even for a lone "1",
    which the thin proportional fonts tried first were not (decision 0022).
    """
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(question_png, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise LabelerError("the question image cannot be read as PNG; re-erase the item")
    for slot in slots:
        if slot.box is None:
            continue
        x0, y0, x1, y1 = slot.box
        scale, (w, h), base = _fitted(slot.mark, x1 - x0, y1 - y0)
        left = x0 + (x1 - x0 - w) // 2
        bottom = y0 + (y1 - y0 + h) // 2
        halo = (
            max(x0, left - 2),
            max(y0, bottom - h - 2),
            min(x1, left + w + 2),
            min(y1, bottom + base),
        )
        image[halo[1] : halo[3], halo[0] : halo[2]] = 255
        canvas = image[y0:y1, x0:x1]  # a view: drawing is clipped to the box
        cv2.putText(
            canvas,
            slot.mark,
            (left - x0, bottom - y0),
            _FONT,
            scale,
            (0, 0, 0),
            _THICKNESS,
            cv2.LINE_AA,
        )
    ok, encoded = cv2.imencode(".png", image)
    assert ok, "PNG encoding of a decoded image cannot fail"
    return bytes(encoded.tobytes())


_FONT = 0  # cv2.FONT_HERSHEY_SIMPLEX (kept a constant so cv2 is imported only when drawing)
_THICKNESS = 2


def _fitted(text: str, width: int, height: int) -> tuple[float, tuple[int, int], int]:
    """The largest scale (within the limits) whose ``text`` fits the box with a 2 px margin.

    Returns the scale, the text's size and its baseline depth.
    """
    import cv2

    px = max(MIN_DIGIT_PX, min(MAX_DIGIT_PX, int(height * 0.75)))
    while True:
        scale = cv2.getFontScaleFromHeight(_FONT, px, _THICKNESS)
        (w, h), base = cv2.getTextSize(text, _FONT, scale, _THICKNESS)
        if px <= MIN_DIGIT_PX or (w + 4 <= width and h + 4 <= height):
            return scale, (w, h), base
        px -= 1
