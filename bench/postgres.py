"""Review on PostgreSQL vs SQLite: the same 7,200-cell project read from both engines.

Builds the project of ``bench/gui.py`` (200 items with keys and figures, 9 models × 4
conditions = 7,200 stored responses) in SQLite, copies it with ``labeler migrate`` into a
PostgreSQL server this script starts in a temp dir (``tests/pgserver.py``: the machine's
PostgreSQL binaries, a unix socket, as the suite does), and times on each engine, offscreen:

- ``data load``: ``load_review(folder)``, what opening Review reads on its worker (items,
  keys and every cell's summary, ``labeler.results.cell_summaries``, its memo emptied first)
  — goal: PostgreSQL ≤ 2× SQLite;
- ``open Review``: constructing the view until it has been painted once;
- ``store read``: ``project.responses.latest()`` alone.

Each figure is the best of 5, the engines taking turns. Run: ``python bench/postgres.py``.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication

from labeler.results import summaries
from labeler.store.transfer import to_postgres
from tests import pgserver
from tests.ui.factory import build_project
from ui.review.cells import load_review
from ui.review.view import ReviewView
from ui.session import Session

MODELS = [f"vendor/model-{n}" for n in range(9)]


class Engine:
    """One open project and the Review steps timed on it."""

    def __init__(self, folder: Path) -> None:
        self.session = Session()
        self.project = self.session.open(folder)
        assert len(self.project.responses.latest()) == 7200
        self.views: list[ReviewView] = []
        self.best: dict[str, float] = {}

    def open_view(self) -> None:
        view = ReviewView(self.session)
        view.resize(1280, 800)
        view.show()
        view.grab()  # forces layout and a full paint
        self.views.append(view)

    def data_load(self) -> None:
        summaries._SUMMARIES.clear()  # the read itself, not the memo of the last one
        load_review(self.project.folder)

    def time_once(self) -> None:
        """Each step once, keeping the fastest time seen so far."""
        steps: dict[str, Callable[[], object]] = {
            "data load": self.data_load,
            "open Review": self.open_view,
            "store read": self.project.responses.latest,
        }
        for step, fn in steps.items():
            start = time.perf_counter()
            fn()
            took = time.perf_counter() - start
            self.best[step] = min(took, self.best.get(step, took))

    def close(self) -> None:
        for view in self.views:
            view.deleteLater()
        self.session.close()


def main() -> None:
    app = QApplication.instance() or QApplication([])
    server = pgserver.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lite, team = Path(tmp) / "lite", Path(tmp) / "team"
            build_project(lite, n_items=200, models=MODELS).close()
            shutil.copytree(lite, team)
            start = time.perf_counter()
            copied = to_postgres(team, server.database())
            took = time.perf_counter() - start
            print(f"labeler migrate: {sum(copied.values())} rows to PostgreSQL in {took:.1f} s")
            engines = [Engine(lite), Engine(team)]
            for _ in range(5):  # interleaved, so a busy moment costs both engines alike
                for engine in engines:
                    engine.time_once()
            on_sqlite, on_postgres = engines[0].best, engines[1].best
            for engine in engines:
                engine.close()
            app.processEvents()
    finally:
        server.stop()
    print(f"{'':14} {'SQLite':>9} {'PostgreSQL':>11} {'ratio':>7}")
    for step, seconds in on_sqlite.items():
        ratio = on_postgres[step] / seconds
        print(f"{step:14} {seconds * 1000:7.1f}ms {on_postgres[step] * 1000:9.1f}ms {ratio:6.2f}×")
    print("goal: data load on PostgreSQL ≤ 2× SQLite")


if __name__ == "__main__":
    main()
