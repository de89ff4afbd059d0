"""kill -9 in the middle of a run, and two processes writing one project at once.

Real ``labeler run`` subprocesses against the loopback server (official OpenAI SDK);
after each kill the database is intact, and the final run answers every cell once in
the store. Only calls that were in flight when the process died are asked again.
"""

import os
import random
import subprocess
import sys
import time

import pytest
from attack_support import ROOT, assert_clear_error

from labeler.prompts import CONDITIONS
from labeler.store import Project
from tests.runs.runs_loopback import API_KEY, LoopbackServer
from tests.runs.runs_support import ITEMS, KEY_ENV, make_project, models_toml

CELLS = len(ITEMS) * len(CONDITIONS)
CONCURRENCY = 2


def _run_command(project, toml):
    return [
        sys.executable, "-m", "labeler", "run", str(project), "--models", str(toml),
        "--model", "t/openai", "--concurrency", str(CONCURRENCY),
    ]  # fmt: skip


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT), KEY_ENV: API_KEY}


def _integrity(folder) -> tuple[str, int]:
    with Project.open(folder) as project:
        ok = project.db.execute("PRAGMA integrity_check").fetchone()[0]
        rows = project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    return ok, rows


@pytest.mark.slow
def test_kill_9_during_runs_loses_only_calls_in_flight(tmp_path):
    make_project(tmp_path / "p").close()
    rng = random.Random(9)
    kills = 0
    with LoopbackServer(latency=0.15) as server:
        toml = models_toml(tmp_path / "models.toml", server.url)
        for _ in range(4):
            proc = subprocess.Popen(
                _run_command(tmp_path / "p", toml),
                env=_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            time.sleep(rng.uniform(1.0, 2.0))
            if proc.poll() is None:
                proc.kill()
                kills += 1
            proc.wait(timeout=30)
            ok, rows = _integrity(tmp_path / "p")
            assert ok == "ok" and rows <= CELLS
        final = subprocess.run(
            _run_command(tmp_path / "p", toml), env=_env(), capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert final.returncode == 0, final.stderr
        assert "Traceback" not in final.stderr
        assert kills >= 1
        assert _integrity(tmp_path / "p") == ("ok", CELLS)
        asked_again = len(server.seen) - CELLS
        assert 0 <= asked_again <= kills * CONCURRENCY  # only what was in flight


@pytest.mark.slow
def test_two_processes_writing_one_project_at_once_keep_it_intact(tmp_path):
    make_project(tmp_path / "p").close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "labeler"]
    procs = [
        subprocess.Popen([*base, "run", str(tmp_path / "p")], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]  # fmt: skip
    export = subprocess.run(
        [*base, "export", str(tmp_path / "p"), "--out", str(tmp_path / "out")],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    outcomes = [p.communicate(timeout=120) for p in procs]
    for proc, (_, err) in zip(procs, outcomes, strict=True):
        if proc.returncode != 0:
            assert_clear_error(proc.returncode, err)
        assert "Traceback" not in err
    assert export.returncode in (0, 2) and "Traceback" not in export.stderr
    ok, rows = _integrity(tmp_path / "p")
    assert ok == "ok" and rows >= CELLS  # both may answer a cell; none is missing
    with Project.open(tmp_path / "p") as project:
        cells = {(r.item_id, r.condition) for r in project.responses.latest()}
    assert len(cells) == CELLS
