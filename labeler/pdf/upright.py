"""Pages shown turned (``/Rotate``): the displayed page's frame, which clips are drawn in.

A page with ``/Rotate 90/180/270`` is shown turned, and a clip is drawn on that displayed
page (the Curate view renders it, ``default_clip`` proposes boxes on it). pymupdf's text,
drawing and image boxes, redaction and crop boxes are all in the *unrotated* page's
coordinates. ``visible_box`` turns a content box into the displayed frame, ``content_box``
back; ``upright_copy`` makes a page that *is* the displayed page, upright, for a question
PDF that must look as the reader saw it (``labeler.erase.turned``).
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


def visible_box(page: pymupdf.Page, box: pymupdf.Rect | Box) -> Box:
    """``box`` in ``page``'s unrotated coordinates (pymupdf's content boxes) on the visible page."""
    rect = pymupdf.Rect(box) * page.rotation_matrix
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def content_box(page: pymupdf.Page, box: pymupdf.Rect | Box) -> Box:
    """``box`` on the visible page in ``page``'s unrotated coordinates (``visible_box`` undone)."""
    rect = pymupdf.Rect(box) * page.derotation_matrix
    return (rect.x0, rect.y0, rect.x1, rect.y1)
