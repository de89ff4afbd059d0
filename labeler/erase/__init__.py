"""Label erasure: the question image, the answer image and the answer key of one figure.

``erase_figure`` is the one entry point (the CLI, ``curation`` and the GUI call
it). It picks the erasure path per label automatically:

* vector text → thin-band redaction (``vector_text``),
* vector outlines → covered-path redaction, names read by OCR (``outlines``),
* raster text (images in the clip, implausible fonts, boxes the curator adds)
  → OCR and the line-protecting pixel eraser (``ocr``/``raster``).

The source document is never modified: all redaction happens on a one-page
copy.

This package imports nothing heavy at import time (importing pymupdf loads
onnxruntime): ``labeler.erase.ocr`` must stay cheap to import, and the CLI
imports command modules eagerly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pymupdf

    from labeler.erase.edits import EraseEdits
    from labeler.erase.result import EraseResult, HarvestedLabel

__all__ = ["EraseResult", "HarvestedLabel", "erase_figure"]


def __getattr__(name: str) -> Any:
    """``EraseResult`` and ``HarvestedLabel`` are loaded on first use."""
    if name in ("EraseResult", "HarvestedLabel"):
        from labeler.erase import result

        return getattr(result, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def erase_figure(
    doc: pymupdf.Document,
    page: int,
    clip: Sequence[float] | None = None,
    dpi: int = 200,
    edits: EraseEdits | None = None,
) -> EraseResult:
    """Erase the printed labels of ``clip`` on 1-based ``page`` and harvest the key.

    ``edits`` are the curator's changes (see :class:`~labeler.erase.edits.EraseEdits`):
    text kept printed, boxes added or rejected, and mask strokes painted over ink the
    automatic paths missed (every pixel under them is erased: white on white paper,
    inpainted on colour, with no line protection).
    """
    from labeler.erase.edits import EraseEdits
    from labeler.erase.pipeline import erase
    from labeler.erase.turned import erase_turned, shown_turned
    from labeler.pdf.limits import mupdf_errors

    with mupdf_errors(doc.name or "the document", f"erasing page {page}"):
        if shown_turned(doc, page):  # a /Rotate page: ``clip`` is on the page as displayed
            return erase_turned(doc, page, clip, dpi, edits or EraseEdits())
        return erase(doc, page, clip, dpi, edits or EraseEdits())
