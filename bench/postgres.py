"""Review on PostgreSQL vs SQLite: the same 7,200-cell project read from both engines.

Builds the project of ``bench/gui.py`` (200 items with keys and figures, 9 models × 4
conditions = 7,200 stored responses) in SQLite, copies it with ``labeler migrate`` into a
PostgreSQL server this script starts in a temp dir (``tests/pgserver.py``: the machine's
PostgreSQL binaries, a unix socket, as the suite does), and times on each engine, offscreen:

- ``data load``: ``ReviewData(project)``, what opening Review reads (items, keys, latest
  responses) — goal: PostgreSQL ≤ 2× SQLite;
- ``open Review``: constructing the view until it has been painted once;
- ``store read``: ``project.responses.latest()`` alone.

Each figure is the best of 5. Run: ``python bench/postgres.py``.
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

from labeler.store.transfer import to_postgres
from tests import pgserver
from tests.ui.factory import build_project
from ui.review.cells import ReviewData
from ui.review.view import ReviewView
from ui.session import Session

MODELS = [f"vendor/model-{n}" for n in range(9)]


def best_of(n: int, fn: Callable[[], object]) -> float:
    """The fastest of ``n`` timed runs of ``fn`` (seconds)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(folder: Path) -> dict[str, float]:
    """Seconds for each step on the project in ``folder``."""
    session = Session()
    project = session.open(folder)
    assert len(project.responses.latest()) == 7200
    views: list[ReviewView] = []

    def open_view() -> None:
        view = ReviewView(session)
        view.resize(1280, 800)
        view.show()
        view.grab()
        views.append(view)

    out = {
        "data load": best_of(5, lambda: ReviewData(project)),
        "open Review": best_of(5, open_view),
        "store read": best_of(5, project.responses.latest),
    }
    for view in views:
        view.deleteLater()
    session.close()
    return out


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
            on_sqlite, on_postgres = measure(lite), measure(team)
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
