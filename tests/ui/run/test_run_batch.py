"""The Run view's batch mode against the loopback batch APIs: the half-price estimate, a
submitted job listed with its state, Collect (in a child process) storing the answers,
and the panel fitting 1280×800 and 1024×640 in the light and the dark palette."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from tests.runs.runs_loopback import LoopbackServer
from tests.ui.run.test_run_view import CALLS, run_view_on_loopback
from ui.theme import apply_theme


@pytest.fixture
def server():
    with LoopbackServer() as srv:
        yield srv


@pytest.fixture
def view(tmp_path, qtbot, session, server, monkeypatch):
    widget = run_view_on_loopback(tmp_path, qtbot, session, server.url, monkeypatch)
    # the estimate of the chosen model (the first one, at opening, is the free baseline's)
    qtbot.waitUntil(lambda: "in batch mode" in widget.plan.text())
    yield widget
    widget.close()


def dollars(text: str, after: str) -> float:
    return float(text.split(after)[1].split("</b>")[0].split()[0].replace(",", ""))


def test_submit_a_batch_then_collect_it(view, qtbot, server):
    server.batches.policy.polls = 1  # the first look finds the job still running
    full = dollars(view.plan.text(), "estimated <b>$")
    assert dollars(view.plan.text(), "in batch mode $") == pytest.approx(full / 2, abs=0.01)
    view.batch_mode.setChecked(True)
    qtbot.waitUntil(lambda: "batch mode saves" in view.plan.text())
    assert dollars(view.plan.text(), "estimated <b>$") == pytest.approx(full / 2, abs=0.01)
    assert view.start_button.text() == "Submit batch"
    assert view.batch_jobs.topLevelItemCount() == 0 and not view.collect_button.isEnabled()

    qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.run_process is None, timeout=30_000)
    assert f"Submitted</b> {CALLS} calls in 1 batch job(s)" in view.outcome.text()
    assert len(server.batches.created) == 1 and server.violations == []
    assert view.batch_jobs.topLevelItemCount() == 1
    row = view.batch_jobs.topLevelItem(0)
    assert (row.text(1), row.text(2)) == ("t/openai", "pending")
    assert view.collect_button.isEnabled()
    assert not view.session.project.responses.latest()
    qtbot.waitUntil(lambda: f"{CALLS} waiting in batch jobs" in view.plan.text())
    assert "<b>0 calls</b>" in view.plan.text() and not view.start_button.isEnabled()

    qtbot.mouseClick(view.collect_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.run_process is None, timeout=30_000)
    assert "1 job(s) still running" in view.outcome.text()
    assert view.batch_jobs.topLevelItem(0).text(2) == "pending"

    qtbot.mouseClick(view.collect_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.run_process is None, timeout=30_000)
    assert f"Collected</b> {CALLS} answers from 1 finished job(s): ok {CALLS}" in (
        view.outcome.text()
    )
    assert len(view.session.project.responses.latest(models=["t/openai"])) == CALLS
    assert view.batch_jobs.topLevelItemCount() == 0 and not view.collect_button.isEnabled()
    qtbot.waitUntil(lambda: "already answered" in view.plan.text())
    assert len(server.batches.created) == 1


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_the_batch_panel_fits_and_reads_in_both_palettes(
    view, qtbot, server, theme, size, tmp_path
):
    app = QApplication.instance()
    try:
        apply_theme(app, theme)
        view.batch_mode.setChecked(True)
        qtbot.waitUntil(lambda: "batch mode saves" in view.plan.text())
        qtbot.mouseClick(view.start_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: view.run_process is None, timeout=30_000)
        view.resize(*size)
        qtbot.wait(50)
        image = view.grab().toImage()
        assert (image.width(), image.height()) == size
        image.save(str(tmp_path / f"run-batch-{theme}-{size[0]}.png"))
        for widget in (view.collect_button, view.batch_jobs, view.batch_mode, view.start_button):
            corner = widget.mapTo(view, QPoint(widget.width(), widget.height()))
            assert widget.isVisible() and 0 < corner.x() <= size[0] and 0 < corner.y() <= size[1]
        # the job's row is there to read: its text contrasts with the list behind it
        palette = view.batch_jobs.palette()
        base, text = palette.base().color(), palette.text().color()
        assert abs(base.lightness() - text.lightness()) > 120
        dark = QColor(image.pixel(size[0] - 5, size[1] // 2)).lightness() < 100
        assert dark == (theme == "dark")
    finally:
        apply_theme(app, "light")
