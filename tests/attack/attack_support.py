"""Helpers for the attack suite: run the real CLI as a user would, and judge its output."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, str]:
    """Run ``python -m labeler ARGS`` in a subprocess; (exit code, stdout + stderr)."""
    out = subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=timeout,
    )
    return out.returncode, out.stdout + out.stderr


def cli_in_process(*args: str) -> tuple[int, str]:
    """The same CLI entry point in this process (fast, for many cases): (exit code, output).

    An exception escaping ``main`` is what a user would see as a traceback, so it is
    returned as one rather than raised.
    """
    from labeler.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse refusing an argument
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception as exc:
            return 1, f"Traceback (most recent call last): {type(exc).__name__}: {exc}"
    return code, out.getvalue()


def assert_clear_error(code: int, output: str, *needles: str) -> None:
    """A user error: exit 2, one ``labeler: error:`` line naming the needles, no traceback."""
    assert code == 2, output
    assert "Traceback" not in output, output
    assert "labeler: error:" in output, output
    for needle in needles:
        assert needle in output, (needle, output)


def fill(folder) -> None:
    """Write into ``folder`` until its filesystem has no space left."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 512):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * size):
                    pass
    finally:
        os.close(fd)
