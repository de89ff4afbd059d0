"""Labeler's PySide6 desktop application.

Importing ``ui`` first works around a reference-counting bug of the installed
PySide6/shiboken6 (6.12) on Python 3.11: every Python call of a Qt method
returning ``void`` (``setText``, ``start`` …) or ``bool`` (``Signal.emit``)
drops one reference to ``None`` / ``True`` / ``False`` that it never took —
the wheels are built for interpreters where those objects are immortal
(Python ≥ 3.12). Left alone, a long session drives the count to zero and the
interpreter aborts ("deallocating None"); a short script aborts at exit. We
give the three singletons a reserve of references no session can use up.
"""

from __future__ import annotations

import sys

RESERVE = 1 << 40  # ~10^12 Qt calls


def _pin_singletons() -> None:
    if sys.version_info >= (3, 12):
        return  # immortal objects: nothing to protect
    import ctypes

    for obj in (None, True, False):
        before = sys.getrefcount(obj)
        count = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt leads every PyObject
        count.value += RESERVE
        # Other references come and go meanwhile; a layout we do not know would not move it.
        if abs(sys.getrefcount(obj) - before - RESERVE) > 10_000:
            count.value -= RESERVE


_pin_singletons()
