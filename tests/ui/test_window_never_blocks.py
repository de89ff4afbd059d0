"""Opening a 10k-answer project in the main window, and its Leaderboard, never block the window.

What ``bench/scale.py`` times at 100k (issue #17), on a project a test can build: the whole
window at 1280×800 — every view built, Curate on screen — opens the project, is painted, fills
Curate's item list and settles (the first item shown, the other views' first reads); then the
Leaderboard is shown until its numbers, flags and intervals are in. A heartbeat on the GUI thread
(:mod:`tests.ui.stall`) records each phase's longest gap. The views' own tests
(``test_views_never_block_refresh``) time each view alone; this one times what the curator
opens — every view reacting to one ``project_opened``, the window's paints — so work that
only adds up in the window (a view's reset in the same turn as another's, a hidden view's
read) fails here.
"""

from __future__ import annotations

from pathlib import Path

from tests.ui.factory import BIG_ITEMS
from tests.ui.gui_helpers import wait_idle
from tests.ui.stall import Heartbeat, heartbeat, stalls_over
from ui.main_window import MainWindow

#: Seconds of GUI-thread work between two ticks. The issue asks ≤ 100 ms at 10k answers and
#: ≤ 50 ms at 100k; what the window does at open — paints, the views' resets — does not grow
#: with the answers, so 100k's bound holds at 10k, and reading the item list on the GUI thread
#: fails it (58 ms at 10k even with the core's memo tables warm, where 100 ms passed it).
LIMIT = 0.050
WALL_LIMIT = 1.0  # seconds without a tick at all, whatever the cause


def shown_window(qtbot) -> MainWindow:
    """A main window at 1280×800, Curate on screen, painted once before any project opens."""
    window = MainWindow()
    window.remember_state = False
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show_view("curate")
    window.show()
    qtbot.waitExposed(window)
    return window


def open_and_show_leaderboard(qtbot, window: MainWindow, folder: Path) -> dict[str, Heartbeat]:
    """The project opened and the Leaderboard shown, each under a heartbeat, waiting as a
    curator does: until the window has settled."""
    items, board = window.views["curate"].items, window.views["leaderboard"]
    beats: dict[str, Heartbeat] = {}
    with heartbeat() as beat:
        window.session.open(folder)
        qtbot.waitUntil(lambda: not items.loading, timeout=60_000)
        wait_idle(qtbot, timeout=60_000)
    beats["open"] = beat
    assert items.model.rowCount() == BIG_ITEMS
    assert items.model.data(items.model.index(0, 3)) != "—", "scores are shown"
    assert window.views["curate"].item is not None, "the first item is shown"
    with heartbeat() as beat:
        window.show_view("leaderboard")
        qtbot.waitUntil(lambda: board.board is not None and not board.computing, timeout=60_000)
        wait_idle(qtbot, timeout=60_000)
    beats["leaderboard"] = beat
    assert board.board is not None and board.board.intervals
    assert board.flags_model.rowCount() == BIG_ITEMS, "every item's flags are listed"
    return beats


def test_opening_a_10k_project_and_its_leaderboard_never_blocks_the_window(qtbot, big_project):
    warm = shown_window(qtbot)  # import and first-call costs (pandas, the scorer), paid once
    open_and_show_leaderboard(qtbot, warm, big_project)
    warm.close()
    window = shown_window(qtbot)
    beats = open_and_show_leaderboard(qtbot, window, big_project)
    window.close()
    slow = stalls_over(beats, LIMIT, WALL_LIMIT)
    assert not slow, f"the GUI thread stalled: {slow}"
