"""Workers run off the GUI thread, report on it, stop when cancelled, skip dead views."""

from __future__ import annotations

import threading

import shiboken6
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QWidget

from tests.ui.gui_helpers import wait_idle
from ui import workers


def test_progress_and_result_arrive_on_the_gui_thread(qtbot):
    seen: list[tuple] = []
    gui = QThread.currentThread()

    def job(n: int, control: workers.TaskControl) -> str:
        assert threading.current_thread() is not threading.main_thread()
        for i in range(n):
            control.progress(i + 1, n, f"step {i + 1}")
        return "done"

    worker = workers.Worker(job, 3, pass_control=True)
    worker.signals.progress.connect(lambda *a: seen.append((a, QThread.currentThread() is gui)))
    worker.signals.result.connect(lambda v: seen.append((v, QThread.currentThread() is gui)))
    with qtbot.waitSignal(worker.signals.finished, timeout=5000):
        workers.start(worker)
    assert seen == [
        ((1, 3, "step 1"), True),
        ((2, 3, "step 2"), True),
        ((3, 3, "step 3"), True),
        ("done", True),
    ]
    wait_idle(qtbot)


def test_cancel_stops_a_running_job_and_errors_are_delivered(qtbot):
    started, steps = threading.Event(), []

    def endless(control: workers.TaskControl) -> None:
        started.set()
        while True:
            control.check()
            steps.append(1)
            threading.Event().wait(0.001)

    worker = workers.Worker(endless, pass_control=True)
    outcome: list[str] = []
    worker.signals.cancelled.connect(lambda: outcome.append("cancelled"))
    worker.signals.result.connect(lambda _: outcome.append("result"))
    workers.start(worker)
    assert started.wait(5)
    with qtbot.waitSignal(worker.signals.finished, timeout=5000):
        worker.cancel()
    assert outcome == ["cancelled"] and steps

    failing = workers.Worker(lambda: 1 / 0)
    errors: list[BaseException] = []
    failing.signals.error.connect(errors.append)
    with qtbot.waitSignal(failing.signals.finished, timeout=5000):
        workers.start(failing)
    assert isinstance(errors[0], ZeroDivisionError)
    assert "ZeroDivisionError" in errors[0].__traceback_text__
    wait_idle(qtbot)


def test_a_result_for_a_closed_view_is_dropped(qtbot):
    gate = threading.Event()
    owner = QWidget()
    got: list[object] = []
    worker = workers.Worker(lambda: gate.wait(5) and "late")
    worker.deliver_to(owner, result=got.append)
    workers.start(worker)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(owner))
    gate.set()
    wait_idle(qtbot)
    assert got == []


def test_withdrawn_queued_jobs_never_run(qtbot):
    gate, ran = threading.Event(), []
    pool = workers.document_pool()
    blocker = workers.start(workers.Worker(gate.wait, 5), pool)
    queued = workers.start(workers.Worker(lambda: ran.append("queued")), pool)
    workers.withdraw(queued, pool)
    gate.set()
    wait_idle(qtbot)
    assert ran == [] and blocker.control.cancelled is False
