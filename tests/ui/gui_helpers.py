"""Shared helpers of the GUI tests: the test PDF and waiting for background work."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from ui import workers

# The figure drawn on page 2 of the test PDF: labels, and the point each leader line ends at.
LABELS = {"Nucleus": (60, 130, 190, 150), "Cell wall": (330, 110, 250, 120)}
FIGURE_CLIP = (20.0, 80.0, 420.0, 260.0)


def write_cell_pdf(path: Path) -> Path:
    """A two-page PDF: body text on page 1, a labelled cell diagram with leader lines on page 2."""
    doc = pymupdf.open()
    first = doc.new_page(width=440, height=320)
    first.insert_text((40, 60), "Chapter 1. Cells", fontsize=16)
    page = doc.new_page(width=440, height=320)
    page.insert_text((40, 50), "The cell and its parts are shown below.", fontsize=10)
    shape = page.new_shape()
    shape.draw_oval(pymupdf.Rect(150, 95, 280, 240))
    shape.finish(color=(0, 0.3, 0), fill=(0.8, 0.95, 0.8), width=1.5)
    shape.draw_circle(pymupdf.Point(195, 150), 18)
    shape.finish(color=(0.3, 0, 0.3), fill=(0.85, 0.7, 0.9))
    for text, (x, y, tx, ty) in LABELS.items():
        shape.draw_line(pymupdf.Point(x + (35 if x < 200 else -4), y - 3), pymupdf.Point(tx, ty))
        shape.finish(color=(0, 0, 0), width=0.8)
        page.insert_text((x - (0 if x < 200 else -2), y), text, fontsize=9)
    shape.commit()
    page.insert_text((40, 290), "Figure 1. A cell.", fontsize=9)
    doc.save(path)
    doc.close()
    return path


def wait_idle(qtbot, timeout: int = 15000) -> None:
    """Wait until every background job has finished and delivered its result."""
    qtbot.waitUntil(lambda: not workers.busy(), timeout=timeout)
