"""The curator's erase edits as one record, from the GUI or CLI to the eraser and the store.

Four kinds of edit change what :func:`labeler.erase.erase_figure` does with a figure. They
used to travel as the keys of a dict through the GUI, curation and the store, each place
re-checking the key names; :class:`EraseEdits` names them once. Boxes are in PDF points
of the page (:data:`labeler.pdf.geometry.Box`), like every box an item stores, so the edits
hold whatever DPI the figure is rendered at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from labeler.errors import LabelerError
from labeler.pdf.geometry import Box

if TYPE_CHECKING:
    from labeler.erase.mask import Stroke

#: The edit kinds, as the store's JSON and the GUI's tools name them.
BOX_KINDS = ("keep", "extra_boxes", "removed_boxes")
EDIT_KINDS = (*BOX_KINDS, "mask_strokes")


@dataclass(frozen=True)
class EraseEdits:
    """What the curator changed about one figure's erasure.

    ``keep``: text to leave printed and out of the key (a scale bar). ``extra_boxes``:
    boxes whose print is erased and becomes a label. ``removed_boxes``: proposed label
    boxes that are not labels (they stay printed). ``mask_strokes``: brush strokes over
    ink the automatic paths missed, erased with no line protection.
    """

    keep: tuple[Box, ...] = ()
    extra_boxes: tuple[Box, ...] = ()
    removed_boxes: tuple[Box, ...] = ()
    mask_strokes: tuple[Stroke, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> EraseEdits:
        """Edits from their JSON form (an item's ``erase_edits``); bad input: a clear error."""
        from labeler.erase.mask import parse_strokes

        data = data or {}
        if not isinstance(data, Mapping):
            raise LabelerError(f"erase edits are a JSON object of edit lists, not {data!r}")
        unknown = set(data) - set(EDIT_KINDS)
        if unknown:
            raise LabelerError(f"unknown erase edit(s): {', '.join(sorted(unknown))}")
        boxes = {kind: tuple(_box(b) for b in data.get(kind, ())) for kind in BOX_KINDS}
        return cls(**boxes, mask_strokes=parse_strokes(data.get("mask_strokes", ())))

    def to_json(self) -> dict[str, list[Any]]:
        """The edits that are not empty, as plain JSON (what an item stores)."""
        out: dict[str, list[Any]] = {k: [list(b) for b in getattr(self, k)] for k in BOX_KINDS}
        out["mask_strokes"] = [s.to_json() for s in self.mask_strokes]
        return {k: v for k, v in out.items() if v}

    def with_edit(self, kind: str, value: Box | Stroke, add: bool) -> EraseEdits:
        """A copy with ``value`` (a box, or a stroke for ``mask_strokes``) added or removed."""
        values = tuple(v for v in self._kind(kind) if v != value)
        return replace(self, **{kind: (*values, value) if add else values})

    def cleared(self, kind: str) -> EraseEdits:
        """A copy without any ``kind`` edit (e.g. every painted stroke)."""
        self._kind(kind)
        return replace(self, **{kind: ()})

    def _kind(self, kind: str) -> tuple[Any, ...]:
        if kind not in {f.name for f in fields(self)}:
            raise LabelerError(f"unknown erase edit {kind!r}; one of {', '.join(EDIT_KINDS)}")
        return tuple(getattr(self, kind))


def _box(value: Any) -> Box:
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        raise LabelerError(
            f"an erase edit's box is [x0, y0, x1, y1] in points, not {value!r}"
        ) from None
    return (x0, y0, x1, y1)
