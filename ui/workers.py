"""Run long work off the GUI thread.

A :class:`Worker` wraps a plain function in a ``QRunnable`` and reports back
through Qt signals, which Qt delivers on the GUI thread (queued connections),
so views update safely. The GUI thread never waits on a worker.

Two pools exist because of one library fact: PyMuPDF is not thread-safe, even
for separate documents. Every job that touches a ``pymupdf.Document`` (render,
propose, erase) runs on :func:`document_pool`, which has exactly one thread, so
those jobs are serialised without locks; the queue is ordered by priority so an
erase the curator is waiting for overtakes background thumbnails. Everything
else (model runs, exports) uses :func:`general_pool`.
"""

from __future__ import annotations

import gc
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QWidget

# Priorities in the document pool: higher runs first.
PRIORITY_BACKGROUND = 0  # thumbnails
PRIORITY_DETAIL = 3  # figure proposals: after the page itself is on screen
PRIORITY_VIEW = 5  # the page the curator is looking at
PRIORITY_USER = 10  # an erase or proposal the curator asked for

_document_pool: QThreadPool | None = None
_project_pool: QThreadPool | None = None
#: How long a Python thread may keep the GIL while another waits (CPython's default is 5 ms).
SWITCH_INTERVAL = 0.001
_live: set[Worker] = set()  # touched on the GUI thread only


class Cancelled(Exception):
    """Raised inside a job by :meth:`TaskControl.check` once the job was cancelled."""


class TaskControl:
    """What a running job may use: report progress and notice cancellation."""

    def __init__(self, signals: WorkerSignals) -> None:
        self._signals = signals
        self._cancelled = threading.Event()
        self._committed = False
        self._lock = threading.Lock()  # cancel() and commit() decide one way, never both

    def cancel(self) -> None:
        """Ask the job to stop at its next :meth:`check` (it is never killed mid-write).

        Ignored once the job has :meth:`commit`-ted: its result is then delivered.
        """
        with self._lock:
            if not self._committed:
                self._cancelled.set()

    def commit(self) -> None:
        """Pass the job's last point to stop (it starts writing): raise :class:`Cancelled`
        if it was cancelled, else ignore Cancel from now on, so a result that was written
        is never dropped as if it had been cancelled."""
        with self._lock:
            if self._cancelled.is_set():
                raise Cancelled
            self._committed = True

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled.is_set()

    def check(self) -> None:
        """Raise :class:`Cancelled` if the job was cancelled; jobs call this between steps."""
        if self.cancelled:
            raise Cancelled

    def progress(self, done: int, total: int, message: str = "") -> None:
        """Report ``done`` of ``total`` steps (delivered on the GUI thread)."""
        self._signals.progress.emit(done, total, message)

    def publish(self, value: object) -> None:
        """Hand a first, partial result to the GUI thread while the job goes on."""
        self._signals.partial.emit(value)


class WorkerSignals(QObject):
    """Signals of one worker; a separate QObject because QRunnable is not one."""

    progress = Signal(int, int, str)  # done, total, message
    partial = Signal(object)  # a first result the job published (TaskControl.publish)
    result = Signal(object)  # the function's return value
    error = Signal(object)  # the exception it raised (never Cancelled)
    cancelled = Signal()
    finished = Signal()  # always last, whatever happened


class Worker(QRunnable):
    """Run ``fn(*args, **kwargs)`` on a pool thread.

    With ``pass_control=True`` the function also gets ``control=TaskControl``
    so it can report progress and stop early when cancelled.
    """

    def __init__(
        self, fn: Callable[..., Any], *args: Any, pass_control: bool = False, **kwargs: Any
    ) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python owns it; dropped from _live when finished
        self.signals = WorkerSignals()
        self.control = TaskControl(self.signals)
        self._call = (fn, args, {**kwargs, "control": self.control} if pass_control else kwargs)

    def cancel(self) -> None:
        """Cancel: a queued job never starts, a running one stops at its next check."""
        self.control.cancel()

    def deliver_to(
        self,
        owner: QObject,
        result: Callable[[Any], None] | None = None,
        error: Callable[[BaseException], None] | None = None,
        finished: Callable[[], None] | None = None,
    ) -> Worker:
        """Connect handlers that run only while ``owner`` (a widget) still exists.

        A job can finish after the view that started it was closed; its result
        must then be dropped, not delivered to a deleted widget.
        """
        for signal, handler in (
            (self.signals.result, result and self._unless_cancelled(result)),
            (self.signals.error, error),
            (self.signals.finished, finished),
        ):
            if handler is not None:
                signal.connect(_guarded(owner, handler))
        return self

    def _unless_cancelled(self, handler: Callable[[Any], None]) -> Callable[[Any], None]:
        """``handler``, unless Cancel was pressed after the job finished but before its
        result reached the GUI thread: then the job counts as cancelled, as the curator saw."""

        def deliver(value: Any) -> None:
            if self.control.cancelled:
                self.signals.cancelled.emit()
            else:
                handler(value)

        return deliver

    def run(self) -> None:  # runs on the pool thread
        fn, args, kwargs = self._call
        try:
            if self.control.cancelled:
                raise Cancelled
            value = fn(*args, **kwargs)
            self.control.check()
        except Cancelled:
            self.signals.cancelled.emit()
        except Exception as exc:  # handed to the GUI thread, which shows it as a dialog
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            self.signals.error.emit(exc)
        else:
            self.signals.result.emit(value)
        finally:
            self.signals.finished.emit()


def _guarded(owner: QObject, handler: Callable[..., None]) -> Callable[..., None]:
    def call(*args: Any) -> None:
        if shiboken6.isValid(owner):
            handler(*args)

    return call


def document_pool() -> QThreadPool:
    """The one-thread pool for every PyMuPDF job (see the module docstring)."""
    global _document_pool
    if _document_pool is None:
        _document_pool = QThreadPool()
        _document_pool.setMaxThreadCount(1)
        _document_pool.setExpiryTimeout(-1)  # keep the thread: documents stay warm
    return _document_pool


def project_pool() -> QThreadPool:
    """The one-thread pool for jobs that read or score the whole project (:class:`LatestJob`).

    The GUI thread needs the GIL for every event it hands to Python. Each
    CPU-bound Python thread it competes with makes it wait up to one switch
    interval per hand-over, so these jobs run one at a time (they also share
    the core's memo tables, so the second view's read is the cheaper), and the
    switch interval is shortened from 5 ms to :data:`SWITCH_INTERVAL` so the
    window gets the GIL back sooner.
    """
    global _project_pool
    if _project_pool is None:
        sys.setswitchinterval(SWITCH_INTERVAL)
        _project_pool = QThreadPool()
        _project_pool.setMaxThreadCount(1)
        _project_pool.setExpiryTimeout(-1)
    return _project_pool


class _ProjectQueue:
    """The jobs waiting for :func:`project_pool`, started one at a time, on-screen views' first.

    The pool's own queue is first come, first served, and an idle pool starts a job the
    moment it is queued: opening a project with Review on screen read the hidden item
    list's cells first (it asks first) while Review waited, 1.5 s of a 2 s cold open at
    100k answers. So jobs wait here, and the next is picked when the pool is free, in the
    event-loop turn after it was asked for (so that the requests one signal makes all
    compete): the first waiting job whose view is on screen, else the first waiting.
    Touched on the GUI thread only.
    """

    def __init__(self) -> None:
        self._waiting: list[tuple[Worker, Callable[[], bool]]] = []
        self._running: Worker | None = None
        self._picking = False

    def submit(self, worker: Worker, on_screen: Callable[[], bool]) -> None:
        _live.add(worker)  # busy() counts it from now on
        worker.signals.finished.connect(lambda: self._finished(worker))
        self._waiting.append((worker, on_screen))
        self._schedule()

    def _schedule(self) -> None:
        if self._running is None and self._waiting and not self._picking:
            self._picking = True
            QTimer.singleShot(0, self._pick)

    def _pick(self) -> None:
        self._picking = False
        if self._running is not None or not self._waiting:
            return
        shown = [k for k, (_, on_screen) in enumerate(self._waiting) if on_screen()]
        if not shown and _turns:
            return  # a result still to show may make its view ask for more: _next_piece wakes us
        worker, _ = self._waiting.pop(shown[0] if shown else 0)
        self._running = start(worker, project_pool())

    def wake(self) -> None:
        """Every result was shown: a hidden view's job may start now (:meth:`_pick`)."""
        self._schedule()

    def _finished(self, worker: Worker) -> None:
        if self._running is worker:
            self._running = None
        self._schedule()


_project_queue = _ProjectQueue()


def on_screen(owner: QObject | None) -> Callable[[], bool]:
    """Whether ``owner`` (a view) is on screen now; asked when its job's turn may come."""

    def shown() -> bool:
        return isinstance(owner, QWidget) and shiboken6.isValid(owner) and owner.isVisible()

    return shown


def general_pool() -> QThreadPool:
    """The shared pool for work that does not touch PyMuPDF."""
    return QThreadPool.globalInstance()


def start(worker: Worker, pool: QThreadPool | None = None, priority: int = 0) -> Worker:
    """Queue ``worker`` (on the general pool unless told) and keep it alive until it finishes."""
    _live.add(worker)
    # Released on the GUI thread once `finished` is delivered there, so the signals
    # object outlives every queued signal it sent.
    worker.signals.finished.connect(lambda: _release(worker))
    (pool or general_pool()).start(worker, priority)
    return worker


def withdraw(worker: Worker, pool: QThreadPool) -> None:
    """Cancel ``worker``; if it is still queued, drop it without running it."""
    worker.cancel()
    if pool.tryTake(worker):
        _release(worker)


def _release(worker: Worker) -> None:
    _live.discard(worker)


def busy() -> bool:
    """True while any worker started through :func:`start` has not finished, or a
    piece of GUI work queued by :func:`next_turn` has not run."""
    return bool(_live) or bool(_turns)


_turns: deque[Callable[[], None]] = deque()  # touched on the GUI thread only
#: The next piece is a timer, not a posted event: a 0 ms call is handled in the loop's
#: next pass over posted events, before the timers that fell due during the piece
#: before it, so two pieces could still run back to back. A 1 ms timer comes after them.
_TURN_MS = 1


def next_turn(piece: Callable[[], None], owner: QObject | None = None) -> None:
    """Run ``piece`` on the GUI thread in an event-loop turn of its own, after those queued
    (not at all if ``owner``, the widget it updates, was deleted meanwhile).

    Results that reach the GUI thread together (three views' reads finishing
    while the window was busy or unscheduled, as on a loaded machine) would
    otherwise all be handled in one pass over the posted events, the window
    frozen for their sum: at the end of a run each view's update costs 10–20 ms.
    Queued here, they run one per turn, and the event loop paints, ticks its
    timers and reads input between them.
    """
    _turns.append(piece if owner is None else _guarded(owner, piece))
    if len(_turns) == 1:
        QTimer.singleShot(_TURN_MS, _next_piece)


def _next_piece() -> None:
    piece = _turns[0]
    try:
        piece()
    finally:
        _turns.popleft()
        if _turns:
            QTimer.singleShot(_TURN_MS, _next_piece)
        else:
            _project_queue.wake()


_quiet_lock = threading.Lock()
_quiet_depth = 0  # project-sized jobs running under quiet_collector


@contextmanager
def quiet_collector() -> Iterator[None]:
    """Keep the cyclic garbage collector out of a project-sized job, and its survivors after.

    A collection holds the GIL, whichever thread runs it, so it freezes the
    window: at 10k answers a job's hundreds of thousands of new objects made
    single collections of 100 ms, and full ones grow with the heap. So the
    collector waits while any such job runs, and what survives the job (the
    snapshot a view shows, the core's memo tables) is frozen — moved where the
    collector never walks (``gc.freeze``), like a server freezing its start-up
    heap. Objects freed later go by reference counting, as everything these
    jobs build does (records, dicts, tuples: no cycles).
    """
    global _quiet_depth
    with _quiet_lock:
        _quiet_depth += 1
        if _quiet_depth == 1:
            gc.disable()
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet_depth -= 1
            if _quiet_depth == 0:
                gc.freeze()
                gc.enable()


def _quietly(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with quiet_collector():
        return fn(*args, **kwargs)


class LatestJob(QObject):
    """One background computation a view keeps current: a newer request supersedes an older one.

    A burst of changes (typing a search, a lexicon edit per click, a run storing
    answers) must not queue one full recomputation per change on a two-core
    machine: at most one job runs; requests made meanwhile collapse into one
    that starts when it ends (the running one is asked to stop, for jobs that
    check their control), and only the newest request's result is delivered —
    in an event-loop turn of its own (:func:`next_turn`), so views whose reads end
    together update one after the other, not in one frozen stretch.
    """

    result = Signal(object)  # the newest request's return value
    partial = Signal(object)  # a first result the newest request published
    error = Signal(object)  # the exception the newest request raised
    busy_changed = Signal(bool)  # True while a request is running or pending

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._running: Worker | None = None
        self._pending: tuple[Callable[..., Any], tuple[Any, ...], bool] | None = None
        self._generation = 0
        self._undelivered = 0  # values waiting for their turn (next_turn)

    @property
    def busy(self) -> bool:
        """Whether a request is running or waiting to run, or its value to be delivered."""
        return self._running is not None or self._pending is not None or self._undelivered > 0

    def request(self, fn: Callable[..., Any], *args: Any, publishes: bool = False) -> None:
        """Compute ``fn(*args)`` on :func:`project_pool`; supersedes every earlier request.

        While its parent (a view) is on screen, its turn comes before hidden views' jobs
        (:class:`_ProjectQueue`).

        ``fn`` runs under :func:`quiet_collector`: these are the project-sized jobs.
        With ``publishes``, ``fn`` also gets ``control=TaskControl`` and may
        :meth:`~TaskControl.publish` a first result (the first screenful) before
        its last, and should :meth:`~TaskControl.check` between steps.
        """
        self._generation += 1
        was_busy = self.busy
        self._pending = (fn, args, publishes)
        if self._running is not None:
            self._running.cancel()  # its result is dropped; it stops early if it checks
        else:
            self._start_pending()
        if not was_busy:
            self.busy_changed.emit(True)

    def drop(self) -> None:
        """Forget every request (the project closed): nothing more is delivered."""
        self._generation += 1
        self._pending = None
        if self._running is not None:
            self._running.cancel()

    def _start_pending(self) -> None:
        assert self._pending is not None
        fn, args, publishes = self._pending
        self._pending = None
        generation = self._generation
        worker = Worker(_quietly, fn, *args, pass_control=publishes)
        worker.signals.partial.connect(
            _guarded(self, lambda value: self._deliver(generation, self.partial, value))
        )
        worker.deliver_to(
            self,
            result=lambda value: self._deliver(generation, self.result, value),
            error=lambda exc: self._deliver(generation, self.error, exc),
            finished=self._finished,
        )
        self._running = worker
        _project_queue.submit(worker, on_screen(self.parent()))

    def _deliver(self, generation: int, signal: Any, value: object) -> None:
        self._undelivered += 1
        next_turn(lambda: self._deliver_now(generation, signal, value), self)

    def _deliver_now(self, generation: int, signal: Any, value: object) -> None:
        self._undelivered -= 1
        try:
            if generation == self._generation and self._pending is None:
                signal.emit(value)
        finally:
            if not self.busy:
                self.busy_changed.emit(False)

    def _finished(self) -> None:
        self._running = None
        if self._pending is not None:
            self._start_pending()
        elif not self.busy:
            self.busy_changed.emit(False)
