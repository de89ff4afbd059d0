"""Per-model pacing and the spending cap, the two limits a run applies as it sends.

Both live on the runner's single asyncio loop, so neither needs a lock: the code
between two ``await``\\ s runs without interruption.
"""

from __future__ import annotations

import asyncio
import time


class Pace:
    """At most ``per_minute`` request starts a minute, spaced evenly (``None``: no limit).

    Even spacing rather than a minute's burst: a provider that counts requests over a
    sliding window never sees more than the limit in any window, and a retry is paced
    like any other request because every attempt waits here.
    """

    def __init__(self, per_minute: float | None) -> None:
        self.interval = 60.0 / per_minute if per_minute else 0.0
        self._next = 0.0

    async def wait(self) -> None:
        """Return when the next request may start."""
        if not self.interval:
            return
        now = time.monotonic()
        start = max(now, self._next)
        self._next = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)


class SpendingCap:
    """Dollars answered plus dollars estimated for calls in flight, against ``cap_usd``.

    A call is sent only if the answered spend, the estimates of the calls still in flight
    and its own estimate together stay within the cap. When it does not fit while other
    calls are in flight, it waits for their actual costs (estimates run high) and asks
    again; once it does not fit with nothing in flight, the run sends nothing more
    (``reached``). So the spend never passes the cap, and what is left under it is less
    than the one estimated call that did not fit.
    """

    def __init__(self, cap_usd: float) -> None:
        self.cap_usd = cap_usd
        self.answered_usd = 0.0
        self.in_flight_usd = 0.0
        self.in_flight = 0
        self.reached = False
        self._changed = asyncio.Condition()

    async def claim(self, estimate_usd: float) -> bool:
        """Reserve ``estimate_usd`` for a call about to be sent; False once the cap is reached."""
        async with self._changed:
            while not self.reached:
                if self.answered_usd + self.in_flight_usd + estimate_usd <= self.cap_usd:
                    self.in_flight_usd += estimate_usd
                    self.in_flight += 1
                    return True
                if not self.in_flight:
                    self.reached = True
                    self._changed.notify_all()
                    break
                await self._changed.wait()
            return False

    async def settle(self, estimate_usd: float, actual_usd: float) -> None:
        """Replace a sent call's reservation by what it actually cost."""
        async with self._changed:
            self.in_flight_usd -= estimate_usd
            self.in_flight -= 1
            self.answered_usd += actual_usd
            self._changed.notify_all()
