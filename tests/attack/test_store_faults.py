"""A run whose store write fails (database locked, disk full) loses no paid answer.

Real runs through the official OpenAI SDK against the loopback server, which counts
every request: the answers received when the write failed are spooled, stored by the
next run, and their cells are never asked again.
"""

import sqlite3

import pytest
from attack_support import fill

from labeler.prompts import CONDITIONS
from labeler.providers.config import load_models
from labeler.runs import spool
from labeler.runs.runner import RetryPolicy, RunOptions, RunRequest, run
from labeler.runs.spool import StoreWriteFailed
from tests.runs.runs_loopback import API_KEY, LoopbackServer
from tests.runs.runs_support import ITEMS, KEY_ENV, make_project, models_toml

FAST = RetryPolicy(base_delay_s=0.01)
CELLS = len(ITEMS) * len(CONDITIONS)


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv(KEY_ENV, API_KEY)
    with LoopbackServer() as srv:
        yield srv


def _models(tmp_path, server):
    return load_models(models_toml(tmp_path / "models.toml", server.url), only=["t/openai"])


def _fault_then_rerun(project, models, fault, clear, needle):
    """Run until ``fault`` strikes after the first stored answer, then clear it and run again."""
    struck = []

    def on_progress(progress):
        if not struck:
            struck.append(progress.done)
            fault()

    with pytest.raises(StoreWriteFailed, match=needle) as err:
        run(
            project,
            RunRequest(models),
            RunOptions(concurrency=2, retry=FAST, on_progress=on_progress),
        )
    assert "are stored (not asked again) the next time you run" in str(err.value)
    spooled = sorted(spool.spool_folder(project).glob("*.json"))
    clear()
    return spooled


def _assert_nothing_lost(project, server, models, spooled):
    """Every answer received is stored or spooled; the next run stores the spool and asks
    only the cells nobody answered."""
    assert spooled, "the fault struck while answers were arriving"
    stored = project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert stored + len(spooled) == len(server.seen)
    again = run(project, RunRequest(models), RunOptions(retry=FAST))
    assert again.skipped == stored + len(spooled)
    assert project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == CELLS
    assert len(server.seen) == CELLS and set(server.counts.values()) == {1}  # none re-paid
    assert not list(spool.spool_folder(project).glob("*.json"))
    assert project.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_locked_database_mid_run_spools_the_answers_and_the_next_run_stores_them(
    tmp_path, server
):
    project = make_project(tmp_path / "p")
    project.db.execute("PRAGMA busy_timeout=300")  # the 30 s default, shortened for the test
    models = _models(tmp_path, server)
    other = sqlite3.connect(tmp_path / "p" / "project.sqlite", isolation_level=None)
    spooled = _fault_then_rerun(
        project,
        models,
        fault=lambda: other.execute("BEGIN IMMEDIATE"),
        clear=lambda: other.execute("ROLLBACK"),
        needle="stayed locked by another program",
    )
    _assert_nothing_lost(project, server, models, spooled)
    other.close()
    project.close()


def test_a_full_disk_mid_run_spools_the_answers_and_the_next_run_stores_them(
    tiny_disk, tmp_path, server
):
    project = make_project(tiny_disk / "p")
    models = _models(tmp_path, server)
    spooled = _fault_then_rerun(
        project,
        models,
        fault=lambda: fill(tiny_disk),
        clear=lambda: (tiny_disk / "filler").unlink(),
        needle="the disk is full",
    )
    _assert_nothing_lost(project, server, models, spooled)
    project.close()


def test_a_spooled_answer_already_stored_is_not_stored_twice(tmp_path, server):
    project = make_project(tmp_path / "p")
    models = _models(tmp_path, server)
    run(project, RunRequest(models, ["told"], ["heart"]), RunOptions(retry=FAST))
    (response,) = project.responses.latest()
    # a crash between the commit and the unlink leaves the file of a stored answer behind
    from dataclasses import asdict, fields

    from labeler.store.records import NewResponse

    names = {f.name for f in fields(NewResponse)}
    again = NewResponse(**{k: v for k, v in asdict(response).items() if k in names})
    spool.keep(project, again, sqlite3.OperationalError("database or disk is full"))
    assert spool.replay(project) == 0
    assert project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 1
    assert not list(spool.spool_folder(project).glob("*.json"))
