"""The ``labeler`` command run in a child process from the checkout, as a user's shell runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_labeler(*args: object, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m labeler ARGS`` with its output captured as text (never raises on exit code)."""
    return subprocess.run(
        [sys.executable, "-m", "labeler", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
