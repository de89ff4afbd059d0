"""The Run view against a real OpenAI-compatible HTTP server on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.runs.runs_loopback import API_KEY, LoopbackServer
from tests.ui.factory import build_project
from tests.ui.stall import heartbeat
from ui.run.view import RunView

KEY_ENV = "LABELER_GUI_TEST_KEY"
N_ITEMS = 6
CALLS = N_ITEMS * 4


def models_toml(path, url: str) -> str:
    path.write_text(
        f"""
[[models]]
name = "t/openai"
provider = "openai"
model = "gpt-test"
base_url = "{url}/v1"
api_key_env = "{KEY_ENV}"
price_input_per_mtok = 2.5
price_output_per_mtok = 10.0

[[models]]
name = "t/gemini"
provider = "gemini"
model = "gemini-test"
api_key_env = "LABELER_GUI_TEST_UNSET_KEY"
""",
        encoding="utf-8",
    )
    return str(path)


@pytest.fixture
def server():
    with LoopbackServer(latency=0.05) as srv:
        yield srv


@pytest.fixture
def server_process():
    """The same server in its own process: its request handling must not share our GIL
    while we measure the GUI thread."""
    script = Path(__file__).resolve().parents[2] / "runs" / "runs_loopback.py"
    proc = subprocess.Popen(
        [sys.executable, str(script), "--latency", "0.05"], stdout=subprocess.PIPE, text=True
    )
    try:
        yield Namespace(url=proc.stdout.readline().strip())
    finally:
        proc.kill()
        proc.wait()


def run_view_on_loopback(tmp_path, qtbot, session, url: str, monkeypatch) -> RunView:
    """The Run view, shown at 1280×800, on a fresh project of :data:`N_ITEMS` items with
    ``t/openai`` (the loopback server at ``url``, its key set) chosen; ``t/gemini``'s key unset."""
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.delenv("LABELER_GUI_TEST_UNSET_KEY", raising=False)
    build_project(tmp_path / "p", n_items=N_ITEMS, models=[]).close()
    session.open(tmp_path / "p")
    widget = RunView(session)
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    widget.set_models_file(models_toml(tmp_path / "models.toml", url))
    widget.select_models(["t/openai"])
    return widget


def open_view(tmp_path, qtbot, session, url: str, monkeypatch) -> RunView:
    widget = run_view_on_loopback(tmp_path, qtbot, session, url, monkeypatch)
    widget.concurrency.setValue(2)
    qtbot.waitUntil(lambda: "calls" in widget.plan.text() and widget.start_button.isEnabled())
    return widget


@pytest.fixture
def view(tmp_path, qtbot, session, server, monkeypatch):
    widget = open_view(tmp_path, qtbot, session, server.url, monkeypatch)
    yield widget
    widget.close()


@pytest.fixture
def isolated_view(tmp_path, qtbot, session, server_process, monkeypatch):
    widget = open_view(tmp_path, qtbot, session, server_process.url, monkeypatch)
    yield widget
    widget.close()


def stored(view: RunView) -> list:
    return view.session.project.responses.latest(models=["t/openai"])


def test_models_without_their_key_are_listed_but_cannot_be_chosen(view):
    rows = {
        view.models.topLevelItem(n).text(0): view.models.topLevelItem(n)
        for n in range(view.models.topLevelItemCount())
    }
    assert set(rows) == {"baseline/subject-prior", "t/openai", "t/gemini"}
    assert rows["t/gemini"].text(3) == "LABELER_GUI_TEST_UNSET_KEY not set"
    assert not rows["t/gemini"].flags() & Qt.ItemFlag.ItemIsEnabled
    view.select_models(["t/gemini"])
    assert rows["t/gemini"].checkState(0) == Qt.CheckState.Unchecked
    assert view.request() is None


def test_the_card_s_four_conditions_are_the_default_and_slot_ones_can_be_added(view):
    assert [c for c, box in view.conditions.items() if box.isChecked()] == [
        "blind",
        "told",
        "desc",
        "no-image",
    ]
    assert set(view.conditions) == {"blind", "told", "desc", "no-image", "slots", "slots-no-image"}
    view.conditions["slots"].setChecked(True)
    request = view.request()
    assert request is not None and request.conditions[-1] == "slots"


def test_a_run_fills_the_progress_bar_and_never_blocks_the_gui_thread(isolated_view, qtbot):
    view = isolated_view
    assert f"{CALLS} calls" in view.plan.text()
    # From the click on, the run works in the background: the GUI thread must keep
    # ticking. What is measured is the heartbeat (tests/ui/stall.py): the GUI thread's
    # own work between ticks, and the wall-clock gap only against a bound no scheduler
    # hiccup on a loaded machine reaches.
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    assert view.cancel_button.isEnabled() and not view.start_button.isEnabled()
    with heartbeat() as beat:
        qtbot.waitUntil(lambda: view.run_process is None, timeout=30_000)

    assert view.progress.maximum() == CALLS and view.progress.value() == CALLS
    assert view.counts["ok"].text() == str(CALLS)
    assert view.last_summary is not None and view.last_summary.sent == CALLS
    assert len(stored(view)) == CALLS
    assert len(beat.gaps) > 20, "the run took long enough to measure"
    assert beat.longest_busy < 0.1, f"the GUI thread worked {beat.longest_busy * 1000:.0f} ms"
    assert beat.longest < 1.0, f"the GUI thread did not tick for {beat.longest * 1000:.0f} ms"
    assert view.log.count() == CALLS


def test_cancel_keeps_what_finished_and_a_second_start_resumes(view, qtbot, server):
    view.concurrency.setValue(1)
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.progress.value() >= 3, timeout=20_000)
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.run_process is None, timeout=20_000)
    first = view.last_summary
    assert first is not None and first.cancelled and 0 < first.sent < CALLS
    assert len(stored(view)) == first.sent

    qtbot.waitUntil(lambda: "already answered" in view.plan.text())
    assert f"{CALLS - first.sent} calls" in view.plan.text()
    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.run_process is None, timeout=30_000)
    assert view.last_summary.sent == CALLS - first.sent
    assert view.last_summary.skipped == first.sent
    assert len(stored(view)) == CALLS
    history = view.session.project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert history == CALLS, "no finished cell was sent (and stored) twice"
    # Only the one call in flight when Cancel was pressed may have been asked twice.
    assert sum(server.counts.values()) <= CALLS + 1


def test_a_bad_models_file_is_reported_and_the_baseline_stays_usable(
    tmp_path, qtbot, session, capsys
):
    build_project(tmp_path / "p", n_items=2, models=[], images=False).close()
    session.open(tmp_path / "p")
    view = RunView(session)
    qtbot.addWidget(view)
    view.show()
    bad = tmp_path / "bad.toml"
    bad.write_text('[[models]]\nname = "x"\nprovider = "openia"\nmodel = "m"\n', encoding="utf-8")
    view.set_models_file(str(bad))
    assert "unknown provider 'openia'" in capsys.readouterr().err
    assert [c.config.name for c in view.choices] == ["baseline/subject-prior"]
    assert view.models_path.text() == ""
    # The offline baseline needs no image: blind/told/desc cannot run, no-image can.
    qtbot.waitUntil(lambda: "calls" in view.plan.text(), timeout=10_000)
    assert "2 calls" in view.plan.text() and "cannot run" in view.plan.text()
    view.close()


def test_a_hidden_run_view_plans_only_when_shown(tmp_path, qtbot, session):
    """Planning reads every answer: a Run view nobody looks at must not pay it on each open."""
    build_project(tmp_path / "p", n_items=2, models=[], images=False).close()
    view = RunView(session)
    qtbot.addWidget(view)
    session.open(tmp_path / "p")
    session.responses_changed.emit()  # what a run's end or an import sends
    qtbot.wait(400)  # longer than the view's 250 ms re-plan delay
    assert view.estimate_worker is None and "calls" not in view.plan.text()
    view.show()
    qtbot.waitUntil(lambda: "calls" in view.plan.text(), timeout=10_000)
    assert view.estimate_worker is not None


def test_the_item_count_follows_the_scope_and_status_edits(tmp_path, qtbot, session):
    """The count the curator reads beside the scope is the number of items a run would send."""
    build_project(tmp_path / "p", n_items=5, models=[], images=False).close()
    view = RunView(session)
    qtbot.addWidget(view)
    session.open(tmp_path / "p")
    project = session.require_project()
    first, second, *_ = [i.id for i in project.items.list()]
    project.items.update(first, status="excluded")
    project.items.update(second, status="draft")
    session.items_changed.emit()
    expected = {"active": 4, "ready": 3, "draft": 1}
    for scope, count in expected.items():
        view.scope.setCurrentIndex(view.scope.findData(scope))
        noun = "item" if count == 1 else "items"
        assert view.item_count.text() == f"{count} {noun}"
        assert len(view._item_ids()) == count  # what a run of this scope would send
