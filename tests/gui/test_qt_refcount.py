"""Importing ``ui`` protects long sessions from PySide6's None/True/False refcount drops.

Without ``import ui`` this script aborts with "deallocating None" on Python 3.11
with the PySide6 6.12 wheels (see ``ui/__init__.py``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys
{guard}
from PySide6.QtCore import QCoreApplication, QObject, Signal

class Pinger(QObject):
    ping = Signal(object)

app = QCoreApplication([])
pinger = Pinger()
pinger.ping.connect(lambda value: None)
for _ in range(20000):
    pinger.setObjectName("x")  # returns void
    pinger.ping.emit(None)  # returns bool
print("survived")
"""


def run(guard: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT.format(guard=guard)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"},
    )


def test_a_long_session_of_qt_calls_survives_with_ui_imported():
    out = run("import ui")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "survived"
