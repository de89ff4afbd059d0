"""Curate's item list, Review and Leaderboard never block the window on a 10k-answer project.

The project (500 items × 5 models × 4 conditions = 10,000 stored answers) is
built once per session through the store's own code. Each view is opened, and
then told that a run ended, while a heartbeat timer on the GUI thread records
its longest gap (:mod:`tests.ui.stall`): the views read and score the project
on workers, so the GUI thread must never work more than 100 ms between two
ticks — 50 ms at the end of a run at 7,200 cells — and the window's wall-clock
gap, which a loaded machine's scheduler also stretches, must stay far from the
seconds a project-sized job on the event thread (or one holding the GIL) costs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.factory import BIG_ITEMS as N_ITEMS
from tests.ui.factory import BIG_MODELS as MODELS
from tests.ui.factory import build_project, run_again
from tests.ui.stall import Heartbeat, heartbeat, stalls_over
from ui import workers
from ui.curate.items_panel import ItemsPanel
from ui.leaderboard.view import LeaderboardView
from ui.review.cells import Column
from ui.review.matrix import SummaryRole
from ui.review.view import ReviewView
from ui.session import Session

LIMIT = 0.100  # seconds of GUI-thread work between ticks: the bound at 10k answers
RUN_END_LIMIT = 0.050  # the same at the end of a run at 7,200 cells
WALL_LIMIT = 1.0  # seconds without a tick at all, whatever the cause


@pytest.fixture(scope="session")
def run_project(tmp_path_factory) -> Path:
    """7,200 answers: 200 items × 9 models × 4 conditions, the size of the card's run."""
    folder = tmp_path_factory.mktemp("scale") / "p7200"
    models = [f"lab/model-{n}" for n in range(9)]
    build_project(folder, n_items=200, models=models, images=False).close()
    return folder


def open_views(qtbot, session: Session) -> tuple[ItemsPanel, ReviewView, LeaderboardView]:
    panel, review, board = ItemsPanel(session), ReviewView(session), LeaderboardView(session)
    for widget in (panel, review, board):
        qtbot.addWidget(widget)
        widget.resize(1280, 800)
    return panel, review, board


def settled(panel: ItemsPanel, review: ReviewView, board: LeaderboardView) -> bool:
    return not (panel.loading or review.loading or board.computing or workers.busy())


def warm_up(qtbot, folder: Path) -> None:
    """Import and first-call costs (pandas, the scorer) paid once, as an open app has."""
    session = Session()
    panel, review, board = open_views(qtbot, session)
    session.open(folder)
    review.show()
    board.show()
    qtbot.waitUntil(lambda: settled(panel, review, board), timeout=60_000)
    session.close()


def test_opening_each_view_on_10k_answers_never_blocks_the_event_loop(qtbot, big_project):
    warm_up(qtbot, big_project)
    session = Session()
    panel, review, board = open_views(qtbot, session)
    stalls: dict[str, Heartbeat] = {}
    with heartbeat() as beat:
        session.open(big_project)
        panel.show()
        qtbot.waitUntil(lambda: not panel.loading, timeout=60_000)
    stalls["curate items"] = beat
    assert panel.model.rowCount() == N_ITEMS
    assert panel.model.data(panel.model.index(0, 3)) != "—", "scores are shown"

    with heartbeat() as beat:
        review.show()
        qtbot.waitUntil(lambda: not review.loading, timeout=60_000)
        review.grab()
    stalls["review"] = beat
    assert review.matrix_model.rowCount() == N_ITEMS
    assert review.matrix_model.columnCount() == len(MODELS) * 4

    with heartbeat() as beat:
        board.show()
        qtbot.waitUntil(lambda: board.board is not None and not board.computing, timeout=60_000)
        board.grab()
    stalls["leaderboard"] = beat
    assert [row.model for row in board.board.rows] != []
    assert len(board.board.items) == N_ITEMS

    with heartbeat() as beat:  # a run ended: every visible view re-reads at once
        session.responses_changed.emit()
        session.lexicon_changed.emit()  # and a burst of edits right after: coalesced
        session.items_changed.emit()
        qtbot.waitUntil(lambda: settled(panel, review, board), timeout=60_000)
    stalls["refresh"] = beat
    session.close()
    slow = stalls_over(stalls, LIMIT, WALL_LIMIT)
    assert not slow, f"the GUI thread stalled: {slow}"


def test_the_end_of_a_run_at_7200_cells_never_blocks_the_window_over_50ms(qtbot, run_project):
    warm_up(qtbot, run_project)
    session = Session()
    panel, review, board = open_views(qtbot, session)
    session.open(run_project)
    for widget in (panel, review, board):
        widget.show()
    qtbot.waitUntil(lambda: settled(panel, review, board), timeout=60_000)
    assert review.matrix_model.rowCount() * review.matrix_model.columnCount() == 7200
    before = review.matrix_model.data_source
    beats = []
    # twice: the second end of a run meets warm caches, the first cold ones; each run
    # answered one model's column of 200 cells again, as a curator's re-run does
    for n, condition in enumerate(("told", "blind")):
        assert run_again(run_project, "lab/model-3", condition, seed=n) == 200
        with heartbeat() as beat:
            session.responses_changed.emit()
            qtbot.waitUntil(lambda: settled(panel, review, board), timeout=60_000)
        beats.append(beat)
    after = review.matrix_model.data_source
    assert after is not before and after is not None and before is not None
    changed = [i for i in review.matrix_model.item_ids if after.changed(before, i)]
    assert len(changed) == 200, "every item's row took its new answers"
    model = review.matrix_model
    cell = model.index(0, model.columns.index(Column("lab/model-3", "blind")))
    shown, old = (
        model.data(cell, SummaryRole),
        before.summary(model.item_ids[0], model.columns[cell.column()]),
    )
    assert shown.response_id > old.response_id, "the matrix paints the newest answer"
    session.close()
    busy, wall = max(b.longest_busy for b in beats), max(b.longest for b in beats)
    assert busy <= RUN_END_LIMIT, f"the end of a run kept the GUI thread {busy * 1000:.0f} ms"
    assert wall <= WALL_LIMIT, f"the window did not tick for {wall * 1000:.0f} ms"
