"""Three runner processes on one PostgreSQL project share its calls through claims.

A real loopback provider (tests/runs) answers slowly, so the runners overlap; the store and
the server's request counts say how often each call was sent and stored.
"""

import json
import os
import signal
import subprocess
import sys
import time

from labeler.store import KeyEntry, NewItem, Project
from tests.pg.runner_worker import CONDITIONS
from tests.runs.runs_loopback import API_KEY, LoopbackServer
from tests.runs.runs_support import KEY_ENV, figure, models_toml

ITEMS = 12
CALLS = ITEMS * len(CONDITIONS)


def team_project(tmp_path, pg_server):
    project = Project.create(tmp_path / "team", db_url=pg_server.database())
    for n in range(ITEMS):
        project.items.add(
            NewItem(
                item_id=f"it-{n:02d}",
                subject=f"organ {n}",
                question_png=figure(seed=n),
                key=[KeyEntry("aorta")],
            )
        )
    return project


def start_runners(project, models, lease, count=3):
    """Start ``count`` runner processes and let them go together once all are ready."""
    env = {**os.environ, KEY_ENV: API_KEY}
    command = [sys.executable, "-m", "tests.pg.runner_worker", str(project.folder), str(models)]
    runners = [
        subprocess.Popen(
            [*command, lease],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(count)
    ]
    for runner in runners:
        assert runner.stdout.readline().strip() == "ready", runner.stderr.read()
    for runner in runners:
        runner.stdin.write("go\n")
        runner.stdin.flush()
    return runners


def stored_per_cell(project):
    rows = project.db.execute(
        "SELECT item_id, condition, COUNT(*) FROM responses GROUP BY item_id, condition"
    ).fetchall()
    return {(r[0], r[1]): r[2] for r in rows}


def test_three_runners_send_every_call_exactly_once_and_share_the_work(tmp_path, pg_server):
    with LoopbackServer(latency=0.25) as server, team_project(tmp_path, pg_server) as project:
        models = models_toml(tmp_path / "models.toml", server.url)
        runners = start_runners(project, models, "5")
        reports = []
        for runner in runners:
            out, err = runner.communicate(timeout=240)
            assert runner.returncode == 0, err
            reports.append(json.loads(out))
        assert [r["planned"] for r in reports] == [CALLS] * 3
        assert sum(r["sent"] for r in reports) == CALLS
        assert all(r["sent"] > 0 for r in reports), reports  # all three did part of the work
        assert len(server.counts) == CALLS and set(server.counts.values()) == {1}
        assert stored_per_cell(project) == {
            (f"it-{n:02d}", c): 1 for n in range(ITEMS) for c in CONDITIONS
        }
        assert server.violations == []


def test_a_runner_killed_mid_run_loses_nothing_and_its_calls_are_taken_over(tmp_path, pg_server):
    with LoopbackServer(latency=0.4) as server, team_project(tmp_path, pg_server) as project:
        models = models_toml(tmp_path / "models.toml", server.url)
        runners = start_runners(project, models, "2")
        deadline = time.monotonic() + 120
        while sum(stored_per_cell(project).values()) < 4:  # every runner is under way
            assert time.monotonic() < deadline, runners[0].stderr.read()
            time.sleep(0.05)
        victim = runners[0]
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        reports = []
        for runner in runners[1:]:
            out, err = runner.communicate(timeout=240)
            assert runner.returncode == 0, err
            reports.append(json.loads(out))
        # nothing lost: every cell answered and stored exactly once
        assert stored_per_cell(project) == {
            (f"it-{n:02d}", c): 1 for n in range(ITEMS) for c in CONDITIONS
        }
        assert len(server.counts) == CALLS
        # only a call the killed runner had in flight (at most its 2 workers) went out twice
        twice = [cell for cell, n in server.counts.items() if n > 1]
        assert len(twice) <= 2 and set(server.counts.values()) <= {1, 2}
        assert sum(server.counts.values()) == CALLS + len(twice)
        open_claims = project.db.execute("SELECT COUNT(*) FROM claims WHERE done = 0").fetchone()
        assert open_claims[0] == 0
