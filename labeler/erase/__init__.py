"""Label erasure: the question image, the answer image and the answer key of one figure.

``erase_figure`` is the one entry point (the CLI, ``curation`` and the GUI call
it). It picks the erasure path per label automatically:

* vector text → thin-band redaction (``vector_text``),
* vector outlines → covered-path redaction, names read by OCR (``outlines``),
* raster text (images in the clip, implausible fonts, boxes the curator adds)
  → OCR and the line-protecting pixel eraser (``ocr``/``raster``).

The source document is never modified: all redaction happens on a one-page
copy.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from labeler.erase.result import EraseResult, HarvestedLabel
from labeler.errors import DocumentError
from labeler.pdf.content import drawings as page_drawings
from labeler.pdf.content import image_boxes, text_spans

__all__ = ["EraseResult", "HarvestedLabel", "erase_figure"]


def _clip_rect(page: pymupdf.Page, clip: Sequence[float] | None) -> pymupdf.Rect:
    if clip is None:
        return pymupdf.Rect(page.rect)
    if len(clip) != 4:
        raise DocumentError(f"a clip needs four numbers x0,y0,x1,y1, not {list(clip)}")
    rect = pymupdf.Rect(clip) & page.rect
    if rect.is_empty or rect.width < 1 or rect.height < 1:
        raise DocumentError(
            f"clip {tuple(clip)} does not overlap the page {tuple(page.rect)}"
            " (clips are PDF points, top-left origin)"
        )
    return rect


def erase_figure(
    doc: pymupdf.Document,
    page: int,
    clip: Sequence[float] | None = None,
    dpi: int = 200,
    keep: Sequence[Sequence[float]] = (),
    extra_boxes: Sequence[Sequence[float]] = (),
    removed_boxes: Sequence[Sequence[float]] = (),
) -> EraseResult:
    """Erase the printed labels of ``clip`` on 1-based ``page`` and harvest the key.

    ``keep``: boxes (points) of text to leave printed and out of the key (a
    scale bar). ``extra_boxes``: boxes the curator adds; whatever is printed in
    them is erased and becomes a label. ``removed_boxes``: proposed label boxes
    the curator rejects (e.g. a false OCR box); they stay printed.
    """
    from labeler.erase.pipeline import Figure

    if dpi <= 0 or dpi > 1200:
        raise DocumentError(f"dpi must be between 1 and 1200, not {dpi}")
    if not 1 <= page <= doc.page_count:
        raise DocumentError(
            f"page {page} does not exist; the document has pages 1-{doc.page_count}"
        )
    source = doc[page - 1]
    area = _clip_rect(source, clip)
    figure = Figure(
        source=source,
        area=area,
        dpi=dpi,
        spans=text_spans(source, tuple(area)),
        drawings=page_drawings(source, tuple(area)),
        images=image_boxes(source, tuple(area)),
    )
    figure.harvest(
        keep=[tuple(b) for b in keep],
        extra=[tuple(b) for b in extra_boxes],
        removed=[tuple(b) for b in removed_boxes],
    )
    return figure.erase(doc, page)
