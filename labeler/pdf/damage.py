"""Damage MuPDF survives silently, turned into warnings a curator sees.

MuPDF repairs a PDF with a broken cross-reference table and opens it as if nothing
happened; a page whose content stream or fonts are damaged renders blank or loses its
text without an error. An item made from such a page would look like a clean figure
with an empty answer key. So the source keeps a warning when MuPDF had to repair it,
and an item keeps one when its page lost its text or its clip renders blank; both are
stored (``sources.warning``, ``items.warning``) and shown, never silently accepted.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pymupdf

from labeler.pdf.svg_paint import drawable_svg

# Text-showing operators (Tj, TJ, ', ") in a content stream: the page meant to print text.
_SHOWS_TEXT = re.compile(rb"(?<![A-Za-z])T[jJ](?![A-Za-z])")


def source_warning(doc: pymupdf.Document) -> str:
    """A warning for a source MuPDF had to repair, or ``""``."""
    if not doc.is_repaired:
        return ""
    return (
        "MuPDF had to repair this PDF (its cross-reference table is damaged), so pages may"
        " be missing parts; compare the items with the original, or re-save the PDF with"
        " a viewer or `mutool clean` and add it again"
    )


def svg_warning(path: str | Path) -> str:
    """A warning for an SVG that Labeler's rewrite could not make fully drawable, or ``""``
    (also for non-SVGs).

    MuPDF fills gradients and style-sheet-styled shapes black; :mod:`labeler.pdf.svg_paint`
    rewrites both, but a gradient becomes its mean flat colour and some paint (patterns,
    complex selectors) stays black. A curator would otherwise publish a figure that differs
    from the original and find out from a reviewer. The exact fix is outside Labeler:
    convert the SVG to PDF with a full SVG renderer (Inkscape, rsvg-convert).
    """
    path = Path(path)
    if path.suffix.lower() != ".svg":
        return ""
    with path.open("rb") as fh:
        rewrite = drawable_svg(fh.read())
    problems = []
    if rewrite.flattened:
        problems.append(
            f"{rewrite.flattened} gradient fill(s) are drawn as flat colours (MuPDF draws no"
            " gradients)"
        )
    if rewrite.left:
        shown = ", ".join(dict.fromkeys(rewrite.left))
        problems.append(f"parts MuPDF cannot draw may be black shapes ({shown})")
    if not problems:
        return ""
    return (
        f"this SVG: {'; '.join(problems)}; for the original look convert it to PDF with"
        " Inkscape or rsvg-convert and add the PDF"
    )


def item_warning(page: pymupdf.Page, original: np.ndarray) -> str:
    """A warning when ``page`` lost its text or the item's original clip (H×W×C pixels)
    renders blank."""
    problems = []
    if _lost_text(page):
        problems.append("its page shows text in its content but none can be read (damaged fonts)")
    if _blank(original):
        problems.append("its clip renders blank (damaged or empty content)")
    if not problems:
        return ""
    return "; ".join(problems) + "; check the figure against the original before using it"


def _lost_text(page: pymupdf.Page) -> bool:
    """The content shows text, but what MuPDF reads has no letter or digit (a missing
    font program, a ToUnicode map sending every code to U+FFFD)."""
    shows_text = _SHOWS_TEXT.search(page.read_contents())
    return bool(shows_text) and not any(c.isalnum() for c in page.get_text("text"))


def _blank(pixels: np.ndarray) -> bool:
    """No channel varies by 8 levels or more: one flat colour, whatever the colour.

    Read from the render's own pixels (decoding its PNG again cost 0.1 s of every add-item).
    """
    if pixels.size == 0:
        return True
    flat = pixels.reshape(-1, pixels.shape[-1]) if pixels.ndim == 3 else pixels.reshape(-1, 1)
    return bool((flat.max(axis=0).astype(int) - flat.min(axis=0)).max() < 8)
