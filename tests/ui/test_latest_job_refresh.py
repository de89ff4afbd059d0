"""LatestJob: a burst of refresh requests costs at most two runs, and only the newest is shown."""

from __future__ import annotations

import gc
import threading
import time

from PySide6.QtCore import QTimer

from ui import workers


def test_a_burst_of_requests_runs_the_first_and_the_last_and_shows_only_the_last(qtbot):
    job = workers.LatestJob()
    release = threading.Event()
    calls: list[int] = []
    shown: list[int] = []
    job.result.connect(shown.append)

    def read(n: int) -> int:
        calls.append(n)
        if n == 0:
            release.wait(10)  # the first read is slow: the burst arrives meanwhile
        return n

    job.request(read, 0)
    qtbot.waitUntil(lambda: calls == [0])
    for n in range(1, 6):
        job.request(read, n)
    assert job.busy
    release.set()
    qtbot.waitUntil(lambda: not job.busy, timeout=10_000)
    assert calls == [0, 5], "requests 1-4 were superseded before they started"
    assert shown == [5], "the superseded read's result is dropped"


def test_a_published_first_result_arrives_before_the_last(qtbot):
    job = workers.LatestJob()
    got: list[tuple[str, object]] = []
    job.partial.connect(lambda v: got.append(("partial", v)))
    job.result.connect(lambda v: got.append(("result", v)))

    def read(control: workers.TaskControl) -> str:
        control.publish("first screenful")
        control.check()
        return "everything"

    job.request(read, publishes=True)
    qtbot.waitUntil(lambda: not job.busy, timeout=10_000)
    assert got == [("partial", "first screenful"), ("result", "everything")]


def test_dropped_requests_deliver_nothing(qtbot):
    job = workers.LatestJob()
    release = threading.Event()
    shown: list[str] = []
    job.result.connect(shown.append)
    job.request(lambda: release.wait(10) and "old project")
    job.drop()  # the project closed while it ran
    release.set()
    qtbot.waitUntil(lambda: not job.busy, timeout=10_000)
    assert shown == []


def test_project_sized_jobs_run_without_the_cyclic_collector_and_freeze_their_survivors(qtbot):
    job = workers.LatestJob()
    seen: list[bool] = []
    frozen_before = gc.get_freeze_count()

    def read() -> list[list[int]]:
        seen.append(gc.isenabled())
        return [[n] for n in range(5000)]  # lists: always tracked by the collector

    kept: list[object] = []
    job.result.connect(kept.append)
    job.request(read)
    qtbot.waitUntil(lambda: not job.busy, timeout=10_000)
    assert seen == [False]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen_before + 5000, "the result was frozen"


def test_results_that_arrive_together_are_delivered_one_per_event_loop_turn(qtbot):
    """Three views' reads ending while the window is busy must not update in one stretch:
    a timer on the GUI thread (the window painting, reading input) runs between them."""
    events: list[str] = []
    ticker = QTimer(interval=1)
    ticker.timeout.connect(lambda: events.append("tick"))
    jobs = [workers.LatestJob() for _ in range(3)]

    def update(name: str) -> None:
        events.append(name)
        due = time.perf_counter() + 0.005  # a view's update outlasts the timer's interval
        while time.perf_counter() < due:
            pass

    for n, job in enumerate(jobs):
        job.result.connect(update)
        job.request(str, f"view {n}")
    ticker.start()
    time.sleep(0.5)  # the window is busy while all three reads end: their results queue up
    qtbot.waitUntil(lambda: not any(job.busy for job in jobs), timeout=10_000)
    ticker.stop()
    updates = [e for e in events if e != "tick"]
    assert updates == ["view 0", "view 1", "view 2"]
    between = events[events.index("view 0") : events.index("view 2")]
    assert between.count("tick") >= 2, f"the updates ran back to back: {events}"
