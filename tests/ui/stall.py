"""Measure how long the GUI thread stops answering: a heartbeat timer records its gaps.

A 10 ms ``QTimer`` fires on the GUI thread; the longest interval between two
ticks, less the interval itself, is the longest the event loop was blocked —
what a curator feels as a frozen window (:attr:`Heartbeat.longest`). Measuring
the heartbeat, not the wall time of a whole action, keeps the number about the
window. On a loaded machine (two cores, a dozen busy processes) the operating
system alone leaves the GUI thread unscheduled for 50–150 ms at times, so the
heartbeat also records the GUI thread's own CPU time between two ticks
(:attr:`Heartbeat.longest_busy`): work done on the event thread — what these
tests exist to catch — whatever the scheduler does. Benches report both.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QTimer

TICK_MS = 10


class Heartbeat:
    """Ticks every :data:`TICK_MS` while running; ``longest`` is the worst gap in seconds."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.busy: list[float] = []  # the GUI thread's CPU seconds within each gap
        self._last = 0.0
        self._last_cpu = 0.0
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.gaps.append(now - self._last)
        self.busy.append(cpu - self._last_cpu)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._tick()  # the gap up to now counts too

    @property
    def longest(self) -> float:
        """The longest time the event loop did not tick, less one interval (seconds)."""
        return max(0.0, max(self.gaps, default=0.0) - TICK_MS / 1000)

    @property
    def longest_busy(self) -> float:
        """The most CPU time the GUI thread spent between two ticks (seconds)."""
        return max(self.busy, default=0.0)


@contextmanager
def heartbeat(freeze: bool = True) -> Iterator[Heartbeat]:
    """Run a :class:`Heartbeat` for the block.

    With ``freeze``, objects alive at the start are moved out of the cyclic
    collector's view (``gc.freeze``), as an application does once started: a
    full collection over a whole test session's heap (pandas, SDKs, OCR) takes
    hundreds of milliseconds in whatever thread triggers it, which is not the
    view's doing.
    """
    if freeze:
        gc.freeze()
    beat = Heartbeat()
    beat.start()
    try:
        yield beat
    finally:
        beat.stop()
        if freeze:
            gc.unfreeze()


def stalls_over(beats: dict[str, Heartbeat], busy: float, wall: float) -> dict[str, str]:
    """Each phase whose GUI thread worked more than ``busy`` seconds between two ticks, or
    went ``wall`` seconds without one, with both figures: what a stall test asserts empty."""
    return {
        name: f"{beat.longest_busy * 1000:.0f} ms busy, {beat.longest * 1000:.0f} ms without a tick"
        for name, beat in beats.items()
        if beat.longest_busy > busy or beat.longest > wall
    }
