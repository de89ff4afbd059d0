"""Erase a figure on a page shown turned (``/Rotate 90/180/270``) as on an upright page.

A clip is drawn on the page as displayed (the Curate view's render, ``default_clip``), but
pymupdf's content boxes, redaction and crop boxes are in the *unrotated* page's
coordinates: a displayed-page clip on a rotated page used to select the wrong content
(body text redacted, labels left in) or fail past the media box. The figure is erased on
an unrotated copy of the page instead, where its print is exactly the upright page's, so
the key is the same; the clip, edits and results are turned between the two frames here.

Measured alternative: erasing the displayed page placed upright on a new page (the
rotation as a form transform) reads the labels sideways, as the reader sees them: at
0.53× the bone figure keyed 13 names (8 printed) at each turn, the membrane 1, 18 and 4
(17 printed) at 90, 180 and 270, a pasted tooth 8, 11 (other names) and 6 of 11.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pymupdf

from labeler.erase.edits import EraseEdits
from labeler.erase.mask import Stroke
from labeler.erase.pipeline import _clip_rect, erase
from labeler.erase.result import EraseResult, HarvestedLabel, Image
from labeler.pdf.geometry import Point, as_box, rect_box
from labeler.pdf.pagebox import set_cropbox
from labeler.pdf.upright import content_box, is_rotated, upright_copy, visible_box


def shown_turned(doc: pymupdf.Document, page: int) -> bool:
    """Whether 1-based ``page`` exists and has a ``/Rotate`` (an invalid page is erase's error)."""
    return 1 <= page <= doc.page_count and is_rotated(doc[page - 1])


def erase_turned(
    doc: pymupdf.Document, page: int, clip: Sequence[float] | None, dpi: int, edits: EraseEdits
) -> EraseResult:
    """:func:`labeler.erase.erase_figure` of a rotated page; ``clip`` is on the displayed page."""
    source = doc[page - 1]
    turn = source.rotation % 360
    area = _clip_rect(source, clip)  # checked on the displayed page, as the user drew it
    flat = pymupdf.open()
    flat.insert_pdf(
        doc, from_page=page - 1, to_page=page - 1, links=False, annots=False, widgets=False
    )
    flat[0].set_rotation(0)
    result = erase(flat, 1, content_box(source, area), dpi, _edits_turned(edits, source))
    # strip the unrotated question page now, in its own frame; then show it turned
    question = pymupdf.open("pdf", result.question_pdf)
    set_cropbox(question[0], rect_box(question[0].mediabox))
    question[0].set_rotation(turn)
    shown = upright_copy(question, 1)
    set_cropbox(shown[0], rect_box(area))
    quarter = -turn // 90  # np.rot90 turns anticlockwise; /Rotate turns clockwise
    return EraseResult(
        question=Image(np.ascontiguousarray(np.rot90(result.question.rgb, quarter))),
        answer=Image(np.ascontiguousarray(np.rot90(result.answer.rgb, quarter))),
        question_document=shown,
        labels=[
            HarvestedLabel(
                text=label.text,
                bbox=as_box(round(v, 2) for v in visible_box(source, label.bbox)),
                kind=label.kind,
                anchor=None
                if label.anchor is None
                else _point(label.anchor, source.rotation_matrix),
                marker=label.marker,
            )
            for label in result.labels
        ],
        method=result.method,
        clip=rect_box(area),
        dpi=result.dpi,
        kept=result.kept,
    )


def _point(point: Point, matrix: pymupdf.Matrix) -> Point:
    turned = pymupdf.Point(point) * matrix
    return (turned.x, turned.y)


def _edits_turned(edits: EraseEdits, page: pymupdf.Page) -> EraseEdits:
    """The curator's boxes and strokes (drawn on the displayed page) on the unrotated page."""
    return EraseEdits(
        keep=tuple(content_box(page, b) for b in edits.keep),
        extra_boxes=tuple(content_box(page, b) for b in edits.extra_boxes),
        removed_boxes=tuple(content_box(page, b) for b in edits.removed_boxes),
        mask_strokes=tuple(
            Stroke(
                width=s.width,
                points=tuple(_point(p, page.derotation_matrix) for p in s.points),
            )
            for s in edits.mask_strokes
        ),
    )
