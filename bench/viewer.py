"""Curate viewer speed: page-render latency vs a bare pymupdf render; thumbnails on a big book.

Builds a 1,000-page book (text and vector drawings on every page) in a temp
folder, then, offscreen:

- ``bare``: ``page.get_pixmap(dpi)`` of one page, the floor any viewer pays;
- ``viewer``: from ``PageViewer.show_page(n)`` until that page's picture at the
  zoom's resolution is on the canvas (worker hop, pixmap conversion, scene
  update) — reported as a ratio to ``bare``;
- ``thumbnails``: opening the book in the viewer until the visible thumbnails
  are drawn, and how many pages were rendered to get there (never 1,000);
- ``stall``: the longest the GUI thread's event loop went without a turn while
  a worker erased each figure of the shipped sample textbook (vector, marker
  and raster/OCR figures) — the goal is that it never blocks > 100 ms.

Run: ``python bench/viewer.py``.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pymupdf
from PySide6.QtWidgets import QApplication

from ui import workers
from ui.curate import documents
from ui.curate.page_viewer import PageViewer

PAGES = 1000
SAMPLES = 20


def write_book(path: Path) -> None:
    doc = pymupdf.open()
    for n in range(PAGES):
        page = doc.new_page(width=595, height=842)
        page.insert_text((60, 80), f"Chapter {n // 20 + 1}, page {n + 1}", fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 535, 300), "Body text. " * 120, fontsize=9)
        shape = page.new_shape()
        for k in range(12):
            shape.draw_circle(pymupdf.Point(200 + 15 * k, 450 + 8 * k), 30)
            shape.finish(color=(0, 0, 0.4), fill=(0.7, 0.8, 0.95), width=0.8)
        shape.commit()
    doc.save(path, garbage=3, deflate=True)


def wait(app: QApplication, done, timeout: float = 30.0) -> None:
    end = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > end:
            raise TimeoutError("the viewer did not finish in time")
        app.processEvents()
        time.sleep(0.0005)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "book.pdf"
        write_book(book)
        viewer = PageViewer()
        viewer.resize(900, 760)
        viewer.show()

        start = time.perf_counter()
        info = documents.describe(str(book))
        viewer.set_document(info)
        strip = viewer.thumbnails
        wait(app, lambda: all(strip.thumbs.is_rendered(p) for p in range(1, 4)))
        wait(app, lambda: not workers.busy())
        thumbs_s = time.perf_counter() - start
        rendered = strip.thumbs.renders_started

        print(f"book: {PAGES} pages; medians of {SAMPLES} page turns")
        doc = pymupdf.open(book)
        pages = [1 + (k * 997) % PAGES for k in range(1, SAMPLES + 1)]
        for zoom in (None, 1.0, 2.0):  # fit-to-view, 100 %, 200 %
            if zoom is not None:
                viewer.canvas.set_zoom(zoom)
                wait(app, lambda: not workers.busy())
            viewer_times = []
            for page in pages:
                t0 = time.perf_counter()
                viewer.show_page(page)
                wait(app, lambda: viewer.canvas.rendered_dpi > 0)
                viewer_times.append(time.perf_counter() - t0)
                wait(app, lambda: not workers.busy())
            dpi = viewer.canvas.rendered_dpi
            bare_times = []
            for page in pages:
                t0 = time.perf_counter()
                doc[page - 1].get_pixmap(dpi=round(dpi), alpha=False)
                bare_times.append(time.perf_counter() - t0)
            bare, seen = statistics.median(bare_times), statistics.median(viewer_times)
            print(
                f"{dpi:4.0f} dpi: bare render {bare * 1000:6.1f} ms, "
                f"viewer page on screen {seen * 1000:6.1f} ms, ratio {seen / bare:.2f}x"
            )
    print(
        f"open book + visible thumbnails: {thumbs_s * 1000:.0f} ms, {rendered} of {PAGES} rendered"
    )
    erase_stalls(app)


def erase_stalls(app: QApplication) -> None:
    """Erase every sample figure in a worker while timing the GUI thread's event-loop turns."""
    from PySide6.QtCore import QTimer

    from labeler.samples.book import layout

    book = Path(__file__).resolve().parents[1] / "labeler" / "data" / "sample" / "textbook.pdf"
    ticks: list[float] = []
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    for figure in layout():
        job = workers.Worker(documents.erase, str(book), figure.page, figure.clip, 200)
        done: list[bool] = []
        job.signals.finished.connect(lambda d=done: d.append(True))
        ticks.clear()
        timer.start()
        t0 = time.perf_counter()
        workers.start(job, workers.document_pool(), workers.PRIORITY_USER)
        wait(app, lambda d=done: bool(d), timeout=120)
        took = time.perf_counter() - t0
        timer.stop()
        gaps = [b - a for a, b in itertools.pairwise(ticks)]
        print(
            f"erase {figure.spec.title[:34]:34s} {took * 1000:6.0f} ms, "
            f"longest GUI stall {max(gaps, default=took) * 1000:5.1f} ms"
        )


if __name__ == "__main__":
    main()
