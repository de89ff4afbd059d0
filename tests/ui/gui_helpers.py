"""Shared helpers of the GUI tests: the test PDF, opening a window or view at a size, waiting
for background work, and measuring what a narrow window clips."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pymupdf
from PySide6.QtWidgets import QAbstractButton, QWidget

from labeler.curation import add_item_from_document
from labeler.erase.edits import EraseEdits
from labeler.store import Item, KeyEntry, Project
from ui import workers
from ui.main_window import MainWindow
from ui.review.view import ReviewView
from ui.session import Session

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


def add_item_keeping_a_label(project: Project, folder: Path) -> tuple[Item, KeyEntry]:
    """An item of the test PDF's figure (written into ``folder``) whose erasure kept its first
    label, so that key text is still readable in the question; and that label, as harvested.

    The label's box is learnt from a first, normal erasure of the figure, which is deleted.
    """
    pdf = write_cell_pdf(folder / "kept.pdf")
    probe = add_item_from_document(project, pdf, 2, FIGURE_CLIP)
    label = project.items.key(probe.id)[0]
    project.items.delete(probe.id)
    kept = EraseEdits(keep=(label.bbox,))
    return add_item_from_document(project, pdf, 2, FIGURE_CLIP, edits=kept), label


def wait_idle(qtbot, timeout: int = 15000) -> None:
    """Wait until every background job has finished and delivered its result."""
    qtbot.waitUntil(lambda: not workers.busy(), timeout=timeout)


def settle(qtbot) -> None:
    """Wait for background work, then a moment for the layout (resize events) to settle."""
    wait_idle(qtbot)
    qtbot.wait(50)


def resize_settled(qtbot, window: QWidget, width: int, height: int) -> None:
    """Resize ``window`` to width×height and :func:`settle`: what a fit test measures after."""
    window.resize(width, height)
    settle(qtbot)


def open_window(qtbot, folder: Path, view: str, width: int = 1280, height: int = 800) -> MainWindow:
    """The main window on the project in ``folder``, showing ``view``, shown at width×height.

    It does not remember its layout, which would carry one test's splitters into the next.
    """
    window = MainWindow()
    window.remember_state = False
    qtbot.addWidget(window)
    window.session.open(folder)
    window.show_view(view)
    window.resize(width, height)
    window.show()
    return window


def show_loaded(qtbot, widget: QWidget, loaded: Callable[[], bool], timeout: int = 20_000) -> None:
    """Show a view on its own at 1280×800 and wait until ``loaded`` (it reads on a worker)."""
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    qtbot.waitExposed(widget)
    qtbot.waitUntil(loaded, timeout=timeout)


def open_review(qtbot, session: Session, folder: Path) -> ReviewView:
    """The Review view on its own, on the project in ``folder``, once it has read and scored it."""
    session.open(folder)
    view = ReviewView(session)
    show_loaded(qtbot, view, lambda: view.data is not None and not view.loading)
    return view


def clipped_buttons(root: QWidget, window: QWidget) -> list[tuple[str, int, int]]:
    """(text, width, needed) of every button of ``root`` shown in ``window`` too narrow for its
    text (an ``&`` shortcut marker takes no room)."""
    found = []
    for button in root.findChildren(QAbstractButton):
        if not button.isVisibleTo(window) or not button.text():
            continue
        needed = button.fontMetrics().horizontalAdvance(button.text().replace("&", ""))
        if button.width() < needed:
            found.append((button.text(), button.width(), needed))
    return found
