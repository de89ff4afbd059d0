"""Guard against the PySide6 release that drops references to None/True/False.

PySide6 6.12.0 on Python 3.11 releases one reference to ``None`` on every call
of a Qt method returning void, and to ``True``/``False`` on every ``emit``;
a long session aborts with "deallocating None". pyproject pins below 6.12
(docs/decisions/0003). This test fails if a release with that bug is installed.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class Pinger(QObject):
    ping = Signal(bool)


def test_qt_calls_keep_the_singletons_reference_counts():
    pinger = Pinger()
    pinger.ping.connect(lambda value: None)
    before = [sys.getrefcount(x) for x in (None, True, False)]
    for _ in range(2000):
        pinger.setObjectName("x")  # returns void
        pinger.ping.emit(True)  # returns bool
        pinger.ping.emit(False)
    after = [sys.getrefcount(x) for x in (None, True, False)]
    drift = [a - b for a, b in zip(after, before, strict=True)]
    assert all(abs(d) < 100 for d in drift), f"refcount drift {drift}: a buggy PySide6 release"
