"""``labeler run`` as a user runs it: a real subprocess, a real project, a loopback server.

Includes the kill -9 test: the run is killed mid-flight with SIGKILL, then
resumed; no finished cell is requested again and nothing finished is lost.
"""

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from labeler.prompts import build_prompt, needs_image
from tests.runs.runs_loopback import LoopbackServer, cell_key, http_error, ok
from tests.runs.runs_support import KEY_ENV, make_project, models_toml

ROOT = Path(__file__).resolve().parents[2]


def labeler_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "labeler", *args]


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), KEY_ENV: "test-key", **extra}


def labeler(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(labeler_cmd(*args), capture_output=True, text=True, env=env(), cwd=ROOT)


def test_dry_run_lists_calls_and_sends_nothing(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    out = labeler(
        "run",
        str(tmp_path / "p"),
        "--models",
        str(toml),
        "--model",
        "t/openai",
        "--model",
        "t/anthropic",
        "--conditions",
        "told,no-image",
        "--dry-run",
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("12 calls to make, 0 cells already answered")
    assert "estimated cost $" in lines[0] and "unknown for t/anthropic" in lines[0]
    calls = [line.split("\t") for line in lines[1:]]
    assert len(calls) == 12
    assert {c[2] for c in calls} == {"told", "no-image"}
    assert all((c[3] == "no image") == (c[2] == "no-image") for c in calls)
    assert any("image/jpeg" in c[3] for c in calls)
    assert server.seen == []


def test_run_baseline_without_models_file(tmp_path):
    make_project(tmp_path / "p").close()
    out = labeler("run", str(tmp_path / "p"))
    assert out.returncode == 0, out.stderr
    assert "sent 12 of 12 calls: ok 12" in out.stdout
    assert "actual cost $0.0000" in out.stdout
    assert "Traceback" not in out.stderr
    again = labeler("run", str(tmp_path / "p"))
    assert again.stdout.startswith("0 calls to make, 12 cells already answered")


def test_config_errors_are_one_line_before_any_call(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url, **{"t/openai": {"provider": "x"}})
    out = labeler("run", str(tmp_path / "p"), "--models", str(toml))
    assert out.returncode == 2
    assert out.stderr.startswith("labeler: error:") and "unknown provider 'x'" in out.stderr
    good = models_toml(tmp_path / "good.toml", server.url)
    no_key = subprocess.run(
        labeler_cmd("run", str(tmp_path / "p"), "--models", str(good)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={k: v for k, v in env().items() if k != KEY_ENV},
    )
    assert no_key.returncode == 2 and f"{KEY_ENV} is not set" in no_key.stderr
    assert server.seen == []


def cells(db_path: Path) -> list[tuple]:
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT id, item_id, condition, status, raw_text FROM responses ORDER BY id"
        ).fetchall()


def start_labeler(*args: str) -> subprocess.Popen:
    """``labeler ARGS`` started in a child process that runs on (its output discarded)."""
    return subprocess.Popen(
        labeler_cmd(*args),
        env=env(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_cells(db_path: Path, count: int, seconds: float = 30) -> None:
    """Wait until a child run has stored ``count`` answers, or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while len(cells(db_path)) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def test_kill_9_mid_run_then_resume_loses_and_repeats_nothing(tmp_path):
    project = make_project(tmp_path / "p")
    subjects = {i.id: i.subject for i in project.items.list()}
    images = {i.id: project.assets.read(i.question_asset) for i in project.items.list()}
    project.close()
    db_path = tmp_path / "p" / "project.sqlite"
    with LoopbackServer(latency=0.4) as server:
        toml = models_toml(tmp_path / "models.toml", server.url)
        args = (
            "run",
            str(tmp_path / "p"),
            "--models",
            str(toml),
            "--model",
            "t/openai",
            "--concurrency",
            "2",
        )
        proc = start_labeler(*args)
        wait_for_cells(db_path, 3)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        before = cells(db_path)
        assert 3 <= len(before) < 12
        resumed = labeler(*args)
        assert resumed.returncode == 0, resumed.stderr
        assert f"{len(before)} cells already answered" in resumed.stdout
    after = cells(db_path)
    assert after[: len(before)] == before  # nothing finished was lost or rewritten
    assert len(after) == 12 and len({(c[1], c[2]) for c in after}) == 12
    for _, item_id, condition, *_ in before:
        prompt = build_prompt(condition, subjects[item_id])
        image = images[item_id] if needs_image(condition) else None
        assert server.counts[cell_key("gpt-test", prompt, image)] == 1, (item_id, condition)
    assert server.violations == []
    assert sum(server.counts.values()) <= 12 + 2  # at most the calls in flight were re-sent


def test_bad_model_output_is_stored_and_never_a_traceback(tmp_path, server):
    make_project(tmp_path / "p").close()
    server.script("of: the human heart", ok('{"diagram_is": "heart\\q", "labels": [{"name": "a'))
    server.script("of: the kidney", ok('{"labels": [{"name": "\\ud800"}]}'))
    toml = models_toml(tmp_path / "models.toml", server.url)
    args = ("run", str(tmp_path / "p"), "--models", str(toml), "--model", "t/openai")
    out = labeler(*args, "--conditions", "told")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "sent 3 of 3 calls" in out.stdout
    db = sqlite3.connect(tmp_path / "p" / "project.sqlite")
    statuses = dict(db.execute("SELECT item_id, status FROM responses").fetchall())
    db.close()
    assert statuses == {"heart": "parse_error", "kidney": "parse_error", "valves": "ok"}


def test_dry_run_needs_no_api_key(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    out = subprocess.run(
        labeler_cmd("run", str(tmp_path / "p"), "--models", str(toml), "--dry-run"),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={k: v for k, v in env().items() if k != KEY_ENV},
    )
    assert out.returncode == 0, out.stderr
    assert "calls to make" in out.stdout and "estimated cost $" in out.stdout
    assert server.seen == []


def test_a_run_where_every_call_failed_exits_non_zero_and_says_why(tmp_path, server):
    make_project(tmp_path / "p").close()
    server.script("", *[http_error(401)] * 3)  # the provider refuses the key, for every call
    toml = models_toml(tmp_path / "models.toml", server.url)
    out = subprocess.run(
        labeler_cmd(
            "run",
            str(tmp_path / "p"),
            "--models",
            str(toml),
            "--model",
            "t/openai",
            "--conditions",
            "told",
        ),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env(**{KEY_ENV: "a-wrong-key"}),
    )
    assert out.returncode == 1, out.stdout + out.stderr
    assert "every call failed" in out.stderr
    assert "t/openai:" in out.stderr and "401" in out.stderr
    assert "a-wrong-key" not in out.stderr + out.stdout  # a key is never echoed
    assert "Traceback" not in out.stderr


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_says_how_to_resume_and_keeps_what_arrived(tmp_path):
    make_project(tmp_path / "p").close()
    with LoopbackServer(latency=0.4) as slow:
        toml = models_toml(tmp_path / "models.toml", slow.url)
        args = ("run", str(tmp_path / "p"), "--models", str(toml), "--model", "t/openai")
        proc = subprocess.Popen(
            labeler_cmd(*args, "--concurrency", "1"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env(),
            # as a terminal starts it: a background job (CI under nohup … &) inherits SIGINT
            # ignored, and Python then never turns Ctrl-C into KeyboardInterrupt
            preexec_fn=_interruptible,
        )
        wait_for_cells(tmp_path / "p" / "project.sqlite", 2, seconds=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "run the same command again" in err and "Traceback" not in err
    stored = len(cells(tmp_path / "p" / "project.sqlite"))
    assert 2 <= stored < 12
    resumed = labeler(*args, "--dry-run")  # what going on would send: only the rest
    assert resumed.stdout.startswith(f"{12 - stored} calls to make, {stored} cells already")


def test_two_runs_at_once_one_refuses_and_a_kill_9_leaves_no_stale_lock(tmp_path):
    make_project(tmp_path / "p").close()
    db_path = tmp_path / "p" / "project.sqlite"
    # 1 s a call, one at a time: the first run cannot finish its 12 calls while the second
    # process starts, however loaded the machine
    with LoopbackServer(latency=1.0) as server:
        toml = models_toml(tmp_path / "models.toml", server.url)
        args = ("run", str(tmp_path / "p"), "--models", str(toml), "--model", "t/openai")
        first = start_labeler(*args, "--concurrency", "1")
        wait_for_cells(db_path, 2)
        second = labeler(*args)
        assert second.returncode == 2
        assert (
            f"a run is already in progress on this project (pid {first.pid}, started "
            in second.stderr
        )
        assert "wait for it or stop it" in second.stderr and "Traceback" not in second.stderr
        first.send_signal(signal.SIGKILL)
        first.wait()
        before = len(cells(db_path))
        assert 2 <= before < 12
        resumed = labeler(*args)
        assert resumed.returncode == 0, resumed.stderr
    assert len(cells(db_path)) == 12
    # the refused run sent nothing; only the one call in flight at the kill may go twice
    assert sum(server.counts.values()) <= 12 + 1
    assert sorted(server.counts.values())[:-1] == [1] * 11


def test_max_cost_stops_says_so_exits_3_and_a_rerun_goes_on(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    args = ("run", str(tmp_path / "p"), "--models", str(toml), "--model", "t/openai")
    capped = labeler(*args, "--max-cost", "$0.02")
    assert capped.returncode == 3, capped.stderr
    match = re.search(
        r"stopped at the spending cap: \$(\d+\.\d+) of \$0\.0200; (\d+) calls not sent; "
        r"raise --max-cost to go on",
        capped.stderr,
    )
    assert match, capped.stderr
    spent, not_sent = float(match[1]), int(match[2])
    assert 0 < spent <= 0.02 and 0 < not_sent < 12
    assert len(server.seen) == 12 - not_sent
    rest = labeler(*args)
    assert rest.returncode == 0, rest.stderr
    assert f"{not_sent} calls to make, {12 - not_sent} cells already answered" in rest.stdout
    assert len(server.seen) == 12 and set(server.counts.values()) == {1}


def test_a_bad_max_cost_is_refused_by_the_option(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    out = labeler("run", str(tmp_path / "p"), "--models", str(toml), "--max-cost", "lots")
    assert out.returncode == 2
    assert "--max-cost: expected an amount of dollars such as 5 or 2.50, got 'lots'" in out.stderr
    assert server.seen == []
