"""Place a real figure (SVG, photograph, scan) on a generated textbook page.

The demo's real figures are single images; a curator meets them on book pages, with a
chapter heading and body text above and a caption below, outside the figure's clip. This
builds such a page the way publishers place art, so erasure and figure proposals see what
they see in a real book: an SVG becomes vector art drawn as a Form XObject
(``show_pdf_page``, as layout tools and PDF merging do), a raster file is inserted as an
image with its labels burned in.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from labeler.pdf.document import open_svg

PAGE_W, PAGE_H = 612.0, 792.0  # US Letter, as the OpenStax books
MARGIN = 54.0
FIGURE_TOP = 178.0
FIGURE_MAX = (PAGE_W - 2 * MARGIN, 440.0)  # the largest a figure is placed, in points


def write_figure_page(
    source: Path, path: Path, chapter: str, body: str, caption: str
) -> tuple[float, float, float, float]:
    """Write a one-page PDF to ``path`` with ``source`` placed on it; returns its clip (points)."""
    vector = source.suffix.lower() == ".svg"
    with open_svg(source) if vector else pymupdf.open(source) as opened:
        size = opened[0].rect
        art = pymupdf.open("pdf", opened.convert_to_pdf()) if vector else None
    scale = min(FIGURE_MAX[0] / size.width, FIGURE_MAX[1] / size.height)
    width, height = size.width * scale, size.height * scale
    left = (PAGE_W - width) / 2
    target = pymupdf.Rect(left, FIGURE_TOP, left + width, FIGURE_TOP + height)
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    page.insert_text((MARGIN, 60), chapter, fontname="hebo", fontsize=14)
    page.insert_textbox(
        pymupdf.Rect(MARGIN, 76, PAGE_W - MARGIN, FIGURE_TOP - 14),
        body,
        fontname="tiro",
        fontsize=10,
    )
    if art is not None:
        page.show_pdf_page(target, art, 0)
        art.close()
    else:
        page.insert_image(target, filename=str(source))
    page.insert_textbox(
        pymupdf.Rect(MARGIN, target.y1 + 10, PAGE_W - MARGIN, target.y1 + 48),
        caption,
        fontname="tiro",
        fontsize=8.5,
    )
    doc.save(path)
    doc.close()
    return (target.x0, target.y0, target.x1, target.y1)
