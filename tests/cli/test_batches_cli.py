"""``labeler run --batch`` and ``labeler batches`` as a user runs them: real subprocesses,
a real project, the loopback batch APIs. Includes kill -9 between submit and collect."""

import fcntl
import os
import pty
import signal
import struct
import subprocess
import termios
import time

from tests.cli.test_runs_cli import ROOT, env, labeler, labeler_cmd
from tests.runs.runs_support import make_project, models_toml


def test_run_batch_submits_then_the_same_command_collects(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    server.batches.policy.polls = 0
    args = ("run", str(tmp_path / "p"), "--models", str(toml), "--batch")
    first = labeler(*args)
    assert first.returncode == 0, first.stderr
    assert "submitted 36 calls in 3 batch job(s)" in first.stdout
    assert "in batch mode $" in first.stdout.splitlines()[0]  # the estimate's saving
    assert len(server.batches.created) == 3 and server.violations == []
    listing = labeler("batches", str(tmp_path / "p"))
    assert listing.returncode == 0 and listing.stdout.count("\tpending\t") == 3
    assert "3 job(s) waiting" in listing.stderr

    second = labeler(*args)
    assert second.returncode == 0, second.stderr
    assert "collected 36 answers from 3 finished batch job(s): ok 36" in second.stdout
    assert "submitted" not in second.stdout and len(server.batches.created) == 3
    assert labeler("batches", str(tmp_path / "p")).stdout.count("collected") == 3


def test_dry_run_says_what_batch_mode_saves(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    out = labeler("run", str(tmp_path / "p"), "--models", str(toml), "--dry-run")
    first = out.stdout.splitlines()[0]
    full = float(first.split("estimated cost $")[1].split()[0])
    batch = float(first.split("with --batch $")[1].split()[0])
    saved = float(first.split("(saves $")[1].split(")")[0])
    assert batch == round(full / 2, 4) or abs(batch - full / 2) < 1e-4  # default discount 0.5
    assert abs(saved - (full - batch)) < 1e-4
    assert server.seen == []


def test_kill_9_between_submit_and_collect_loses_nothing_and_sends_nothing_twice(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    server.batches.policy.polls = 10**9  # the jobs run until the test lets them end
    submit = labeler("run", str(tmp_path / "p"), "--models", str(toml), "--batch")
    assert submit.returncode == 0, submit.stderr
    assert len(server.batches.created) == 3
    waiter = subprocess.Popen(
        labeler_cmd("batches", str(tmp_path / "p"), "--wait", "--poll", "0.1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=env(),
    )
    try:
        deadline = time.monotonic() + 60
        while server.batches.retrieves < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.batches.retrieves >= 6  # it is polling the three jobs
    finally:
        waiter.send_signal(signal.SIGKILL)
        waiter.wait()
    # a new run while the jobs are still running submits nothing again
    again = labeler("run", str(tmp_path / "p"), "--models", str(toml), "--batch")
    assert again.returncode == 0 and "36 calls already waiting" in again.stdout
    assert len(server.batches.created) == 3

    server.batches.finish_all()
    collect = labeler("batches", str(tmp_path / "p"), "--collect")
    assert collect.returncode == 0, collect.stderr
    assert "collected 36 answers from 3 finished batch job(s): ok 36" in collect.stdout
    assert sorted(server.counts.values()) == [1] * 36  # each call sent once, in one job
    rerun = labeler("run", str(tmp_path / "p"), "--models", str(toml), "--batch")
    assert rerun.stdout.startswith("0 calls to make, 36 cells already answered")


def test_progress_bar_only_on_a_terminal(tmp_path):
    make_project(tmp_path / "p").close()
    piped = labeler("run", str(tmp_path / "p"), "--items", "heart")
    assert piped.returncode == 0 and piped.stderr == ""  # no bar in a log
    make_project(tmp_path / "q").close()
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 150, 0, 0))
    proc = subprocess.Popen(
        labeler_cmd("run", str(tmp_path / "q")),
        stdout=subprocess.PIPE,
        stderr=follower,
        cwd=ROOT,
        env=env(),
    )
    os.close(follower)
    proc.communicate(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "12/12" in text and "ok 12" in text and "$0.0000" in text
    assert "<00:00" in text  # the time remaining
