"""Add and apply redactions with every option explicit (shared by both vector paths).

``Page.apply_redactions`` first walks every redaction annotation in Python to
remember fill colours and overlay text, then asks MuPDF to redact, then draws
those fills. Our annotations never have a fill or text (``fill=False``: a fill
would paint over leader lines), so that walk is pure overhead — two thirds of
the redaction time on a typical figure (measured on PyMuPDF 2.0). When the
installed PyMuPDF exposes its MuPDF step (``Page._apply_redactions``) we call
it directly; otherwise the public method does the same job, only slower.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from labeler.pdf.geometry import rect_box
from labeler.pdf.pagebox import set_cropbox


def add_quads(page: pymupdf.Page, rects: Sequence[pymupdf.Rect]) -> None:
    """One redaction annotation (no fill) covering all ``rects`` as its QuadPoints.

    MuPDF redacts every quad of an annotation, so one annotation with many
    quads does what many annotations do, at a tenth of the cost (each
    ``add_redact_annot`` re-scans the page's annotation list in Python). The
    annotation is made with MuPDF's own call: pymupdf's wrapper also builds an
    appearance stream and a unique name, which a redaction applied at once never
    uses (a quarter of a millisecond per figure).
    """
    if not rects:
        return
    mupdf = pymupdf.mupdf
    annot = mupdf.pdf_create_annot(page._pdf_page(), mupdf.PDF_ANNOT_REDACT)
    for rect in rects:
        mupdf.pdf_add_annot_quad_point(
            annot, mupdf.FzQuad(mupdf.FzRect(rect.x0, rect.y0, rect.x1, rect.y1))
        )


def apply(page: pymupdf.Page, *, images: int, graphics: int, text: int) -> None:
    """Redact ``page``'s redaction annotations (none of which has a fill or overlay text)."""
    direct = getattr(page, "_apply_redactions", None)
    if direct is not None and direct(text, images, graphics):
        return
    page.apply_redactions(images=images, graphics=graphics, text=text)


def strip_outside(page: pymupdf.Page, clip: Sequence[float], margin: float = 0.5) -> None:
    """Remove text, and drawings wholly outside ``clip``, from a page cropped to it.

    A crop box only hides the rest of the page: its body text and the figure
    caption (which can name the subject) would still be in the file. Images are
    kept (one may straddle the clip); a drawing crossing the clip's edge stays.
    """
    crop = page.cropbox
    set_cropbox(page, rect_box(page.mediabox))
    m, (x0, y0, x1, y1) = page.mediabox, clip
    outside = [
        pymupdf.Rect(m.x0, m.y0, m.x1, y0 - margin),
        pymupdf.Rect(m.x0, y1 + margin, m.x1, m.y1),
        pymupdf.Rect(m.x0, y0 - margin, x0 - margin, y1 + margin),
        pymupdf.Rect(x1 + margin, y0 - margin, m.x1, y1 + margin),
    ]
    add_quads(page, [r for r in outside if not r.is_empty])
    apply(
        page,
        images=pymupdf.mupdf.PDF_REDACT_IMAGE_NONE,
        graphics=pymupdf.mupdf.PDF_REDACT_LINE_ART_REMOVE_IF_COVERED,
        text=pymupdf.mupdf.PDF_REDACT_TEXT_REMOVE,
    )
    set_cropbox(page, rect_box(crop))
