"""Stand a rotated page upright, so the code that reads page content sees what a reader sees.

A page with ``/Rotate 90/180/270`` is shown turned, and a clip is drawn on that visible
page (the Curate view renders it, ``default_clip`` proposes boxes on it). pymupdf's text,
drawing and image boxes, redaction and ``set_cropbox`` all work in the *unrotated*
page's coordinates, so a visible-page clip on a rotated page selects the wrong content
(body text redacted, labels left) or lies past the unrotated media box.

Rather than map every coordinate both ways through every erasure path, the visible page
is placed upright on a new one-page document (``show_pdf_page``): the rotation becomes
the form's transform, a placement the erasure code already handles for figures pasted
from other PDFs, and the visible-page clip is that page's own coordinates. The same
figure then erases exactly as on an upright page.
"""

from __future__ import annotations

import pymupdf

from labeler.pdf.geometry import Box


def is_rotated(page: pymupdf.Page) -> bool:
    """Whether ``page`` is shown turned (a ``/Rotate`` other than 0)."""
    return page.rotation % 360 != 0


def upright_copy(doc: pymupdf.Document, page: int) -> pymupdf.Document:
    """A one-page document showing 1-based ``page`` of ``doc`` as a reader sees it, unrotated.

    Its page has the visible page's size; a point on it is the same point of the visible
    (rotated) page. The source document is not modified.
    """
    source = doc[page - 1]
    # ``show_pdf_page`` of a rotated page does not draw it as displayed (measured: 16 % of
    # the pixels differ at 90°); of its unrotated copy, turned back by the rotation, it does
    # (pixel-identical renders at 90, 180 and 270)
    flat = pymupdf.open()
    flat.insert_pdf(
        doc, from_page=page - 1, to_page=page - 1, links=False, annots=False, widgets=False
    )
    flat[0].set_rotation(0)
    upright = pymupdf.open()
    target = upright.new_page(width=source.rect.width, height=source.rect.height)
    target.show_pdf_page(target.rect, flat, 0, rotate=-source.rotation)
    return upright


def visible_box(page: pymupdf.Page, box: Box) -> Box:
    """``box`` in ``page``'s unrotated coordinates (pymupdf's content boxes) on the visible page."""
    rect = pymupdf.Rect(box) * page.rotation_matrix
    return (rect.x0, rect.y0, rect.x1, rect.y1)
