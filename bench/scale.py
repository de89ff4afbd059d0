"""GUI at scale: a 100k-answer project must open and show like a 7k one (issue #17).

Builds projects of 10,000 and 100,000 stored answers with the benches' shared builder
(``bench/build_project.py``, through the store's own code; 10 models × 4 conditions ×
250 or 2,500 items, no figures — no view measured here reads one), then, in a fresh process
per size (so peak RSS is that size's), offscreen:

- ``painted``: ``session.open`` until the main window has been painted once
  (Curate on screen, its item list saying "loading…" if its rows are not in yet);
- ``items listed``: until Curate's item list shows every item with its score;
- ``review rebuilt``: in a process of its own, opening the project with Review on screen
  until its matrix holds every item and is painted, no view having read the cells before
  and no columns kept on disk (``labeler.results.summary_file``: the first open after
  another process changed the project), the scores cached in the store;
- ``review cold``: the same in the next fresh process, which finds the columns the first
  kept (any open of a project as it was last seen);
- ``review``: switching to Review until its matrix holds every item and is painted;
- ``leaderboard``: switching to Leaderboard until its numbers are shown
  (``leaderboard CIs``: with their bootstrap intervals);
- ``run end``: a run's answers stored (:data:`RUN_ITEMS` items answered again under every
  model and condition, through the store) and its end signalled, until every view has
  re-read and settled;

each with the process's CPU seconds (every thread: the workers' reads are most of it;
the machine is shared, so wall seconds stretch with its load and CPU seconds do not) and
the longest event-loop stall while doing it, measured by a 10 ms heartbeat on the GUI
thread (``tests/ui/stall.py``): ``stall`` is the longest wall-clock gap between ticks,
``busy`` the GUI thread's own CPU time in its longest gap (the scheduler of a loaded
machine stretches the first, not the second). The load average is printed with each
size. Goals at 100k on 2 cores: painted ≤ 3 s, review (cold or not) ≤ 1 s, leaderboard ≤ 3 s,
stall ≤ 50 ms; growth from 10k to 100k no worse than linear.

Round 9 (2026-12-02, issue #17's open and Leaderboard stalls), 100k answers, three runs each,
before (``bc1003e`` with this file) and after alternated on the same projects, load 1.5–3.5
(other engineers' jobs), median [runs]:

=============  ============================  ============================  =====
phase          before wall / busy (ms)       after wall / busy (ms)        busy
=============  ============================  ============================  =====
open           134 [80 134 159] / 53         101 [101 156 65] / 41         0.77×
leaderboard     53 [38 53 56] / 22            41 [39 41 43] / 19           0.86×
review          56 / 36                       43 / 25                      0.69×
run end        126 / 34                       30 / 20                      0.59×
=============  ============================  ============================  =====

At 10k: open 91 → 119 ms wall (busy 52 → 40), leaderboard 45 → 32 (busy 20 → 20). The wall
figures follow the machine's load more than the code: at load ≥ 2 the GUI thread waits for a
core (and for the GIL a descheduled worker holds) far longer than it works.

After the round's merges (main ``f8d4726``, load 0.6–1.1, scores cached), 100k: painted
0.04 s, items listed 1.38 s, review cold 1.60 s (goal 1 s: not met; 1.40 s of it on workers,
the cached rows' query ≈0.45 s and building 100k cells' columns), review 0.29 s, leaderboard
0.45 s, CIs 1.62 s, run end 0.33 s; stalls open 64 ms wall / 39 ms GUI-thread work, review 25,
leaderboard 23, run end 27 ms; peak 619 MiB. 10k: review cold 0.43 s, every stall ≤ 37 ms.

Round 10 (2026-12-03, another machine: about 1.5× slower than the one above, load 0.7–1.3),
100k: before the columns were kept on disk review cold 2.42 s, items listed 2.12 s; with them
(main ``e6eb33c``) review cold 0.81 s (goal 1 s: met), items listed 0.72 s, review rebuilt
2.17 s (the first process after a change elsewhere: no current file), leaderboard 0.86 s,
CIs 2.38 s, run end 0.30 s; stalls (wall / GUI-thread work) open 52 / 50 ms, review 55 / 53,
leaderboard 68 / 37, run end 62 / 36; peak 548 MiB. 10k: review cold 0.43 s, rebuilt 0.59 s,
every stall ≤ 71 ms wall, ≤ 50 ms GUI-thread work.

Round 11 (2026-12-03, the same machine, load 0.5–1.5). The heartbeat no longer freezes and
then unfreezes the heap around each phase (``freeze=False``): its ``gc.unfreeze()`` at the end
of one phase handed every object the views' jobs had frozen (:func:`ui.workers.quiet_collector`)
back to the collector, so later phases met full collections (30–70 ms over 250k objects) that
an application, which never unfreezes, does not. Until now every phase also ended with
``window.grab()``, a synchronous render of the whole window inside the measured turn (20–30 ms
at 1280×800, on top of the window's own paint): the phases now wait for the window's own paint
(:func:`until_painted`). And "run end" signalled a run that stored nothing, so every view found
its memo; it now stores 400 answers first. 100k, five runs (main ``25e785a``): painted
0.03–0.05 s, items listed 0.55–0.85 s, review cold 0.69–0.90 s (goal 1 s: met), review
rebuilt 1.6–3.2 s, review 0.24–0.37 s, leaderboard 0.51–0.66 s, CIs 1.85–2.27 s, run end with
400 answers 1.26–1.55 s (2.4–3.3 s before the kept columns were brought up to date instead of
rebuilt); stalls, wall / GUI-thread work: open 36–58 / 33–48 ms, review 16–30 / 24–38,
leaderboard 32–45 / 14–26, run end 42–79 / 26–53 (goal 50 ms: the GUI-thread work meets it in
all but one run, the wall figure not when the workers hold the interpreter or both cores).
The worst turns are one piece of a view's update plus the paint it causes (Review's open
item's answers and their table; Curate's first item and the first whole-window paint). 10k:
every phase ≤ 0.54 s, stalls ≤ 70 / 56 ms.

Round 12 (2026-12-04, load 0.3–1.6). The projects were rebuilt, and the first run measured
"review rebuilt" at 31.8 s: a project fresh from the builder has no cached scores, so its first
open scored every answer. The bench now fills the score cache before any clock starts
(:func:`scored`), as it always meant to. Curate shows an item's key and fields in one turn and
its preview and source page in the next. 100k, two runs: painted 0.05–0.06 s, items listed
0.60–0.75 s, review rebuilt 1.39–1.76 s, review cold 0.66–0.67 s, review 0.34–0.39 s,
leaderboard 0.53–0.56 s, CIs 1.41–1.64 s, run end 1.30–1.61 s; stalls, wall / GUI-thread work,
before → after the split: open 56 / 54 → 46 / 32 ms, review 35 / 39 → 34 / 38, leaderboard
25 / 17 → 25 / 20, run end 15 / 23 → 35 / 42 (goal 50 ms: met in the run after). Five paired
opens under a GUI-thread sampler gave GUI-thread work of 37–55 ms before and 28–38 ms after.

Run: ``python bench/scale.py [--sizes 10000,100000] [--keep DIR]`` (``--keep``
reuses projects built before in DIR).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_project import answer_again
from bench.build_project import build as shared_build
from labeler.results import summary_file

N_MODELS = 10
CONDITIONS = ("blind", "told", "desc", "no-image")
GOALS = {
    "painted": 3.0,
    "review rebuilt": 1.0,
    "review cold": 1.0,
    "review": 1.0,
    "leaderboard": 3.0,
}
STALL_GOAL = 0.050
#: The items the measured run answers again (every model and condition) before it ends.
RUN_ITEMS = 10
#: The widgets :func:`until_painted` had to grab: no paint of their own came.
FORCED: list[str] = []


def build(folder: Path, n_answers: int) -> Path:
    """A project of ``n_answers`` stored answers, built by the benches' shared builder."""
    n_items = n_answers // (N_MODELS * len(CONDITIONS))
    return shared_build(folder, n_items, N_MODELS, CONDITIONS)


@contextmanager
def offscreen_window(view: str) -> Iterator[tuple[Any, Any]]:
    """The application and a main window, offscreen, painted once with ``view`` on screen.

    Both measuring children start this way, so their figures differ only in what they
    time: settings go to a folder of the child's own (nothing remembered from a user's
    session or another run) and the analysis modules are imported before any clock starts
    (import costs are start-up, not the views').
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as settings:
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings)
        import labeler.analysis  # noqa: F401 - import costs are start-up, not the views'
        from ui.main_window import MainWindow

        window = MainWindow()
        window.remember_state = False
        window.resize(1280, 800)
        window.show_view(view)
        window.show()
        app.processEvents()
        try:
            yield app, window
        finally:
            window.close()


def until(app: Any, done: Callable[[], bool]) -> float:
    """Spin ``app``'s event loop until ``done()``; the wall seconds it took."""
    start = time.perf_counter()
    while not done():
        app.processEvents()
        time.sleep(0.002)
    return time.perf_counter() - start


def until_painted(
    app: Any,
    widget: Any,
    shown: Callable[[], bool] = lambda: True,
    done: Callable[[], bool] | None = None,
) -> None:
    """Spin ``app``'s event loop until ``widget`` has been painted showing what the phase
    waits for (``shown()`` true while it paints) and ``done()`` (default ``shown``) holds.

    The window's own paint is waited for, not forced: a ``grab()`` renders the whole
    window once more, synchronously, inside the turn being measured — 20–30 ms at
    1280×800 that no curator's window spends, which the stall figures counted until
    round 11. A paint that never comes (nothing left to update) ends the wait after
    a second with a grab, counted in :data:`FORCED` (the report says so): that figure
    is late, not missing.
    """
    from PySide6.QtCore import QEvent, QObject

    class Watch(QObject):
        seen = False

        def eventFilter(self, watched: Any, event: Any) -> bool:
            if event.type() == QEvent.Type.Paint and shown():
                self.seen = True
            return False

    watch = Watch()
    target = getattr(widget, "viewport", lambda: widget)()
    target.installEventFilter(watch)
    try:
        until(app, done or shown)
        waited = time.perf_counter()
        until(app, lambda: watch.seen or time.perf_counter() - waited > 1.0)
        if not watch.seen:
            FORCED.append(type(widget).__name__)
            widget.window().grab()
    finally:
        target.removeEventFilter(watch)


def measure_cold(folder: Path) -> dict[str, float]:
    """Open ``folder`` with Review on screen and time it until its matrix is painted.

    Review opened first in a fresh process (its own child): no other view has read the
    cells before it, so nothing is memoised (``review`` in :func:`measure` comes after
    Curate's item list has read them). The item list loads alongside, as it does
    whichever view is shown, and its read comes first (the views' reads run one at a
    time), so Review's own read takes its memo; CPU seconds are the whole process's
    (import costs excluded), with the GUI thread's share (models, row sizes, painting)
    apart from the workers' (reading and scoring).
    """
    from labeler.store import Project

    with Project.open(folder) as project:  # counted before the clocks start: not the view's
        n_items = len(project.items.list())
    with offscreen_window("review") as (app, window):
        review = window.views["review"]
        start = time.perf_counter(), time.process_time(), time.thread_time()
        window.session.open(folder)
        until_painted(
            app,
            review.matrix,
            lambda: review.matrix_model.rowCount() == n_items,
            lambda: not review.loading and review.matrix_model.rowCount() == n_items,
        )
        return {
            "review cold": time.perf_counter() - start[0],
            "review cold cpu": time.process_time() - start[1],
            "review cold gui": time.thread_time() - start[2],  # the GUI thread's own share
        }


def measure(folder: Path) -> dict[str, float]:
    """Open the window on ``folder`` and time every view (runs in its own process)."""
    from tests.ui.stall import heartbeat
    from ui import workers

    out: dict[str, float] = {}
    with offscreen_window("curate") as (app, window):
        items = window.views["curate"].items
        review = window.views["review"]
        board = window.views["leaderboard"]

        def phase(name: str, beat) -> None:
            out[f"{name} stall"] = beat.longest
            out[f"{name} busy"] = beat.longest_busy

        def mark(name: str, start: tuple[float, float]) -> None:
            out[name] = time.perf_counter() - start[0]
            out[f"{name} cpu"] = time.process_time() - start[1]

        def now() -> tuple[float, float]:
            return time.perf_counter(), time.process_time()

        with heartbeat(freeze=False) as beat:  # the application's own collector policy
            start = now()
            window.session.open(folder)
            until_painted(app, items.table)
            mark("painted", start)
            until_painted(app, items.table, lambda: not items.loading)
            mark("items listed", start)
            until(app, lambda: not workers.busy())  # the rest opening set off is open's too
        phase("open", beat)
        n_items = items.model.rowCount()
        with heartbeat(freeze=False) as beat:  # the application's own collector policy
            start = now()
            window.show_view("review")
            until_painted(
                app,
                review.matrix,
                lambda: review.matrix_model.rowCount() == n_items,
                lambda: not review.loading and review.matrix_model.rowCount() == n_items,
            )
            mark("review", start)
        phase("review", beat)
        with heartbeat(freeze=False) as beat:  # the application's own collector policy
            start = now()
            window.show_view("leaderboard")
            until_painted(app, board.table, lambda: board.board is not None)
            mark("leaderboard", start)
            until_painted(
                app,
                board.table,
                lambda: board.board is not None and bool(board.board.intervals),
                lambda: not board.computing,
            )
            mark("leaderboard CIs", start)
        phase("leaderboard", beat)
        added = answer_again(window.session.project, RUN_ITEMS)  # what a run stores
        with heartbeat(freeze=False) as beat:  # the application's own collector policy
            start = now()
            window.show_view("review")
            window.session.responses_changed.emit()
            until(app, lambda: not workers.busy())
            mark("run end", start)
        phase("run end", beat)
        out["cells"] = review.matrix_model.rowCount() * review.matrix_model.columnCount()
        out["run answers"] = added
    out["forced paints"] = len(FORCED)
    out["peak rss MiB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def report(size: int, row: dict[str, float]) -> None:
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"\n{size:,} answers ({int(row['cells']):,} cells in the matrix; load {load})")
    names = (
        "painted", "items listed", "review rebuilt", "review cold", "review", "leaderboard",
        "leaderboard CIs",
    )  # fmt: skip
    for name in (*names, "run end"):
        goal = f"  (goal ≤ {GOALS[name]:.0f} s)" if name in GOALS else ""
        if name == "run end":
            goal = f"  ({row['run answers']:.0f} answers stored by the run)"
        print(f"  {name:<15} {row[name]:7.2f} s wall {row[f'{name} cpu']:6.2f} s CPU{goal}")
    for name in ("open", "review", "leaderboard", "run end"):
        print(
            f"  stall {name:<12} {row[f'{name} stall'] * 1000:6.0f} ms wall,"
            f" {row[f'{name} busy'] * 1000:4.0f} ms GUI-thread work"
            f"  (goal ≤ {STALL_GOAL * 1000:.0f} ms)"
        )
    for name in ("review rebuilt", "review cold"):
        gui = row[f"{name} gui"]
        print(
            f"  {name} CPU by thread: {row[f'{name} cpu'] - gui:.2f} s workers,"
            f" {gui:.2f} s GUI thread"
        )
    print(f"  peak RSS      {row['peak rss MiB']:7.0f} MiB")
    if row["forced paints"]:
        forced = f"{row['forced paints']:.0f} phase(s)"
        print(f"  ({forced} ended without a paint: grabbed, figure late)")


def scored(folder: Path) -> None:
    """Every cell's score in the store's cache, as any earlier open of the project leaves it.

    A project fresh from the builder has none, and its first open would score all its answers
    (30 s of workers at 100k): that is the first open after a scoring-rules change, not the
    "another process changed the project" that ``review rebuilt`` measures. Not timed.
    """
    from labeler.results import cell_summaries
    from labeler.store import Project

    with Project.open(folder) as project:
        cell_summaries(project)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--keep", type=Path, help="build projects here and reuse them")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--measure-cold", type=Path, help=argparse.SUPPRESS)  # another child
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    if args.measure_cold:
        print(json.dumps(measure_cold(args.measure_cold)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        rows = {}
        for size in (int(s) for s in args.sizes.split(",")):
            folder = base / f"scale-{size}"
            if not folder.exists():
                start = time.perf_counter()
                build(folder, size)
                print(f"built {size:,} answers in {time.perf_counter() - start:.0f} s")
            scored(folder)
            rows[size] = {}
            # a fresh process each; the first without the columns kept on disk (a project
            # whose state no process has read before), the next finding what it kept
            kept = summary_file.path_in(folder)
            kept.unlink(missing_ok=True)
            for mode in ("--measure-cold", "--measure-cold", "--measure"):
                child = subprocess.run(
                    [sys.executable, __file__, mode, str(folder)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                found = json.loads(child.stdout.strip().splitlines()[-1])
                if "review cold" in found and "review rebuilt" not in rows[size]:
                    found = {k.replace("cold", "rebuilt"): v for k, v in found.items()}
                rows[size].update(found)
            report(size, rows[size])
        if len(rows) > 1:
            small, large = min(rows), max(rows)
            factor = large / small
            print(f"\ngrowth {small:,} → {large:,} answers ({factor:.0f}× the answers):")
            names = (
                "items listed", "review rebuilt", "review cold", "review", "leaderboard",
                "leaderboard CIs", "run end",
            )  # fmt: skip
            for name in (*names, *(f"{n} cpu" for n in names), "peak rss MiB"):
                ratio = rows[large][name] / max(rows[small][name], 1e-9)
                print(
                    f"  {name:<19} ×{ratio:5.1f}  ({'within' if ratio <= factor else 'beyond'}"
                    " linear)"
                )


if __name__ == "__main__":
    main()
