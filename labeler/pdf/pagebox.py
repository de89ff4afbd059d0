"""Set a page's crop box without pymupdf's string round trip.

``Page.set_cropbox`` writes the box through ``xref_set_key``, which prints the whole page
dictionary to a string, edits it and parses it back: a third of a millisecond per call, a
few per cent of erasing a figure (measured with ``bench/erase.py``). Writing the array into
the page dictionary directly does the same in microseconds, with the same coordinates
and the same check as pymupdf.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from labeler.errors import DocumentError


def set_cropbox(page: pymupdf.Page, rect: Sequence[float]) -> None:
    """Crop ``page`` to ``rect`` (page coordinates, top-left origin), as ``Page.set_cropbox``."""
    x0, y0, x1, y1 = (float(v) for v in rect)
    media = page.mediabox
    # PDF boxes have a bottom-left origin: flip y about the media box's top
    box = (x0, media.y1 - y1, x1, media.y1 - y0)
    if not (media.x0 <= box[0] < box[2] <= media.x1 and media.y0 <= box[1] < box[3] <= media.y1):
        raise DocumentError(
            f"the region {tuple(rect)} lies outside the page's media box {tuple(media)}"
            " (regions are PDF points, top-left origin, of the page as displayed)"
        )
    mupdf = pymupdf.mupdf
    page_obj = mupdf.pdf_page_from_fz_page(page.this).obj()
    mupdf.pdf_dict_put_rect(page_obj, mupdf.PDF_ENUM_NAME_CropBox, mupdf.FzRect(*box))
