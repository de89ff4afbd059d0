"""The window notices answers another process stores while it is open (a terminal's run)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.ui.factory import build_project
from tests.ui.gui_helpers import open_window
from ui.main_window import MainWindow

BASELINE = "baseline/subject-prior"
N_ITEMS = 3
CONDITIONS = 4


def test_a_cli_run_in_another_process_shows_in_every_view_without_user_action(
    qtbot, tmp_path: Path
):
    folder = tmp_path / "p"
    build_project(folder, n_items=N_ITEMS, models=[]).close()  # with images: all 4 conditions
    window = open_window(qtbot, folder, "review")
    qtbot.waitExposed(window)
    review = window.views["review"]
    curate_items = window.views["curate"].items
    qtbot.waitUntil(lambda: not review.loading and not curate_items.loading, timeout=10_000)
    assert review.matrix_model.columns == []  # nothing answered yet
    assert {curate_items.model.data(curate_items.model.index(r, 3)) for r in range(3)} == {"—"}

    # A real `labeler run` in its own process, with the offline baseline model.
    done = subprocess.run(
        [sys.executable, "-m", "labeler", "run", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr

    # No signal is emitted by the test: the window's watcher must notice the writes.
    def answers_shown() -> None:
        cells = [c.condition for c in review.matrix_model.columns if c.model == BASELINE]
        assert len(cells) == CONDITIONS and len(review.matrix_model.item_ids) == N_ITEMS

    qtbot.waitUntil(answers_shown, timeout=15_000)
    qtbot.waitUntil(
        lambda: (
            "—"
            not in [curate_items.model.data(curate_items.model.index(r, 3)) for r in range(N_ITEMS)]
        ),
        timeout=15_000,
    )
    window.show_view("leaderboard")
    board = window.views["leaderboard"]
    qtbot.waitUntil(
        lambda: not board.computing and bool(board.board and board.board.rows), timeout=15_000
    )
    assert [row.model for row in board.board.rows] == [BASELINE]
    assert board.board.n_answers == N_ITEMS * CONDITIONS


def test_the_windows_own_writes_do_not_look_like_another_process(qtbot, tmp_path: Path):
    folder = tmp_path / "p"
    build_project(folder, n_items=2, models=["m/a"], images=False).close()
    window = MainWindow()
    qtbot.addWidget(window)
    window.remember_state = False
    window.session.open(folder)
    project = window.session.require_project()
    assert not window.watcher.poll()
    own = project.items.list()[0].id
    project.items.update(own, subject="the heart")  # this window's write, announced as the
    window.session.item_changed.emit(own)  # views announce theirs
    assert not window.watcher.poll()
    with type(project).open(folder) as other:  # another connection, as another process has
        other.items.update(other.items.list()[0].id, subject="the mammalian heart")
    assert window.watcher.poll()
    assert not window.watcher.poll()  # once per change
    with type(project).open(folder) as other:  # a write no view shows (as the score cache)
        other.set_meta("cite_year", "2026")
    assert not window.watcher.poll()
