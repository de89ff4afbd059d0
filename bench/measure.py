"""Shared bench helpers: the 10k/100k projects, and a command's CPU time and peak memory.

Projects are built once per size by :func:`bench.build_project.build` into a cache folder
(``LABELER_BENCH_PROJECTS``, default ``$TMPDIR/labeler-bench-projects``) and copied for each
measurement, so every measured command starts from a project with nothing cached yet.
Commands run in a fresh process and are measured with ``os.wait4``: CPU seconds (user +
system, robust to other jobs on the machine) and that process's own peak RSS.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_project import build
from labeler.store.schema import SCHEMA_VERSION

N_MODELS = 10
N_CONDITIONS = 4
SIZES = (10_000, 100_000)  # stored answers


@dataclass(frozen=True)
class Usage:
    """One finished process: CPU seconds, wall seconds and peak resident memory (MiB)."""

    cpu: float
    wall: float
    peak_mib: float


def projects_folder() -> Path:
    default = Path(tempfile.gettempdir()) / "labeler-bench-projects"
    return Path(os.environ.get("LABELER_BENCH_PROJECTS", default))


def fresh_project(n_answers: int, into: Path) -> Path:
    """A copy of the seeded project with ``n_answers`` answers (built on first use) in ``into``."""
    n_items = n_answers // (N_MODELS * N_CONDITIONS)
    # per schema version: a project built by another branch's migrations must not be reused
    built = projects_folder() / f"answers-{n_answers}-schema{SCHEMA_VERSION}"
    if not (built / "project.sqlite").is_file():
        shutil.rmtree(built, ignore_errors=True)
        built.parent.mkdir(parents=True, exist_ok=True)
        build(built, n_items, N_MODELS)
    target = into / f"answers-{n_answers}"
    shutil.copytree(built, target)
    return target


def run(argv: list[str]) -> Usage:
    """Run ``argv`` to completion (it must succeed) and measure it."""
    import time

    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed")
    return Usage(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def labeler(*args: str) -> list[str]:
    """The ``labeler`` command line in this interpreter."""
    return [sys.executable, "-m", "labeler", *args]
