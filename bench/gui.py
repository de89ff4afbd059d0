"""GUI speed: opening the Review matrix on a full-size project.

Builds a real project in a temp folder (200 items with keys and figures,
9 models × 4 conditions = 7,200 stored responses), then times, offscreen:

- ``open``: constructing the Review view on the open session until the window
  has been painted once (reading the store, building the model, scoring the
  visible cells, painting) — goal ≤ 1 s;
- ``store read``: the bare cost inside that — ``project.responses.latest()``;
- ``rescore``: a lexicon edit repainted (cache cleared, visible cells rescored);
- ``next item``: one J keypress (figure, key and 36 answer columns).

- ``page render``: the Curate page viewer's latency from ``show_page`` to the
  page on screen, as a ratio to a bare ``page.get_pixmap`` at the same dpi.

Run: ``python bench/gui.py``.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication

from tests.ui.factory import build_project
from ui.review.cells import load_review
from ui.review.view import ReviewView
from ui.session import Session

MODELS = [
    "google/gemini-3.1-pro-preview",
    "google/gemini-3.6-flash",
    "anthropic/claude-opus-5",
    "google/gemini-2.5-pro",
    "openai/gpt-5.6-luna",
    "google/gemini-2.5-flash",
    "anthropic/claude-sonnet-4",
    "openai/gpt-4o",
    "openai/gpt-4o-mini",
]


def best_of(n: int, fn) -> float:
    """The fastest of ``n`` timed runs of ``fn`` (seconds)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        start = time.perf_counter()
        build_project(folder, n_items=200, models=MODELS).close()
        print(f"built 200 items × 9 models × 4 conditions in {time.perf_counter() - start:.1f} s")
        session = Session()
        project = session.open(folder)
        cells = len(project.responses.latest())

        def open_view() -> ReviewView:
            view = ReviewView(session)
            view.resize(1280, 800)
            view.show()
            while view.loading:  # read and scored on a worker
                app.processEvents()
            view.grab()  # forces layout and a full paint
            return view

        views = []
        t_open = best_of(3, lambda: views.append(open_view()))
        t_store = best_of(3, project.responses.latest)
        t_data = best_of(3, lambda: load_review(folder))
        view = views[-1]

        def rescore() -> None:
            session.lexicon_changed.emit()
            while view.loading:
                app.processEvents()
            view.grab()

        t_rescore = best_of(3, rescore)

        def next_item() -> None:
            view.step(1)
            view.grab()

        t_next = best_of(5, next_item)
        print(f"cells: {cells}")
        print(f"open Review (load + model + first paint): {t_open * 1000:7.1f} ms  (goal ≤ 1000)")
        print(f"  bare store read (responses.latest):    {t_store * 1000:7.1f} ms")
        print(f"  load_review (read + score every cell): {t_data * 1000:7.1f} ms")
        print(f"  ratio open / bare store read:          {t_open / t_store:7.2f}×")
        print(f"rescore after a lexicon edit + repaint:  {t_rescore * 1000:7.1f} ms")
        print(f"next item (J) + repaint:                 {t_next * 1000:7.1f} ms")
        page_render()
        for v in views:
            v.deleteLater()
        session.project.close()
    app.processEvents()


def page_render() -> None:
    """Page-render latency in the Curate viewer as a ratio to a bare pymupdf render.

    The viewer's latency is from ``show_page`` until the rendered page is on the
    canvas (worker render, queued signal, scene update), with the viewer's own
    thumbnail and proposal jobs competing as they do for a curator; the bare cost
    is ``page.get_pixmap`` at the same resolution on an open document.
    """
    import pymupdf

    from labeler.samples.book import write_sample_book
    from ui.curate import documents
    from ui.curate.page_viewer import PageViewer

    app = QApplication.instance()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "book.pdf"
        write_sample_book(path, repeat=4)
        info = documents.describe(str(path))
        viewer = PageViewer()
        viewer.resize(1000, 760)
        viewer.show()
        canvas = viewer.canvas

        def shown(page: int) -> float:
            start = time.perf_counter()
            viewer.show_page(page)
            while not (canvas.page == page and canvas.rendered_dpi > 0):
                app.processEvents()
            return time.perf_counter() - start

        viewer.set_document(info, 1)
        while canvas.rendered_dpi == 0:
            app.processEvents()
        pages = list(range(2, len(info.page_sizes) + 1))
        for zoom in (1.0, 2.5):
            if zoom != 1.0:
                canvas.set_zoom(canvas.zoom() * zoom)
                start = time.perf_counter()
                while time.perf_counter() - start < 0.5:  # let the re-render settle
                    app.processEvents()
            viewer_times = sorted(shown(p) for p in pages)
            dpi = round(canvas.rendered_dpi)
            with pymupdf.open(path) as doc:
                bare_times = []
                for p in pages:
                    start = time.perf_counter()
                    doc[p - 1].get_pixmap(dpi=dpi)
                    bare_times.append(time.perf_counter() - start)
            bare_times.sort()
            mid = len(pages) // 2
            print(
                f"page render in the viewer ({len(pages)} pages at {dpi} dpi): median "
                f"{viewer_times[mid] * 1000:.1f} ms vs bare pymupdf {bare_times[mid] * 1000:.1f} ms"
                f" = {viewer_times[mid] / bare_times[mid]:.2f}×"
            )
        viewer.deleteLater()


if __name__ == "__main__":
    main()
