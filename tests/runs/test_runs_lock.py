"""One run per project: the run lock refuses a second run and never outlives its holder."""

import os

import pytest

from labeler.runs.lock import RunInProgress, run_lock
from labeler.runs.runner import RetryPolicy, RunOptions, RunRequest, plan_run, run
from tests.runs.test_runs_runner import openai_model

FAST = RetryPolicy(base_delay_s=0.01)
# The lock is SQLite's; runs on PostgreSQL share their calls instead (tests/pg/test_shared_runs.py)
pytestmark = pytest.mark.sqlite_only


def test_a_second_run_refuses_naming_the_holder_and_sends_nothing(
    project, server, key_env, tmp_path
):
    models = openai_model(tmp_path, server)
    with run_lock(project.folder), pytest.raises(RunInProgress) as caught:
        run(project, RunRequest(models, ["told"]), RunOptions(retry=FAST))
    message = str(caught.value)
    assert f"a run is already in progress on this project (pid {os.getpid()}, started " in message
    assert message.endswith("; wait for it or stop it")
    assert server.seen == []
    after = run(project, RunRequest(models, ["told"]), RunOptions(retry=FAST))
    assert after.sent == 3  # released: the next run proceeds


def test_a_plan_made_while_another_run_held_the_lock_skips_what_it_answered(
    project, server, key_env, tmp_path
):
    models = openai_model(tmp_path, server)
    stale = plan_run(project, RunRequest(models, ["told", "blind"]))
    assert len(stale.calls) == 6
    run(project, RunRequest(models, ["told"]), RunOptions(retry=FAST))
    second = run(project, RunRequest(models, ["told", "blind"]), RunOptions(retry=FAST), stale)
    assert (second.sent, second.skipped) == (3, 3)
    assert len(server.seen) == 6 and set(server.counts.values()) == {1}
