"""Redraw a few regions of a page into a copy of an existing render of it.

The question image differs from the answer render only inside the erased labels' boxes
(redaction changes nothing else), so it is the answer render with those regions drawn again
from the erased page. Drawing each region straight into one copy of the answer pixmap
(MuPDF's draw device limited to the region's pixel box) costs a copy and one display-list
run per region. Rendering each region as its own pixmap, as pymupdf's ``get_pixmap(clip=)``
does, also allocates, clears and converts a pixmap per region and copies it back: three to
four times the cost on a typical figure (measured with ``bench/erase.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from labeler.pdf.geometry import PixelBox


def redraw(
    display: pymupdf.DisplayList, base: pymupdf.Pixmap, zoom: float, boxes: Sequence[PixelBox]
) -> pymupdf.Pixmap:
    """A copy of ``base`` (a render of the same page at ``zoom``) with ``boxes`` drawn anew.

    ``boxes`` are pixel boxes relative to ``base``'s top-left corner; each is cleared to white
    and drawn from ``display``, so its pixels are those of a render of ``display``.
    """
    mupdf = pymupdf.mupdf
    out = pymupdf.Pixmap(base, 0)  # a copy, without alpha like ``base``
    scale = mupdf.FzMatrix(zoom, 0, 0, zoom, 0, 0)
    identity = mupdf.FzMatrix()
    for x0, y0, x1, y1 in boxes:
        if x1 <= x0 or y1 <= y0:
            continue
        area = mupdf.FzIrect(base.x + x0, base.y + y0, base.x + x1, base.y + y1)
        mupdf.fz_clear_pixmap_rect_with_value(out.this, 255, area)
        # the device draws in pixel space (identity); the page-to-pixel zoom goes to the run
        device = mupdf.fz_new_draw_device_with_bbox(identity, out.this, area)
        try:
            mupdf.fz_run_display_list(
                display.this, device, scale, mupdf.fz_rect_from_irect(area), mupdf.FzCookie()
            )
        finally:
            mupdf.fz_close_device(device)
    return out
