"""The project pool runs the on-screen view's reads before hidden views' (ui.workers).

Opening a project with Review on screen, the hidden item list asks first; Review's
matrix must not wait behind it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from tests.ui.gui_helpers import wait_idle
from ui import workers


def views(qtbot) -> tuple[QWidget, QWidget]:
    shown, hidden = QWidget(), QWidget()
    qtbot.addWidget(shown)
    qtbot.addWidget(hidden)
    shown.show()
    qtbot.waitExposed(shown)
    return shown, hidden


def test_the_on_screen_views_read_goes_first_though_asked_second(qtbot) -> None:
    shown, hidden = views(qtbot)
    ran: list[str] = []
    behind, ahead = workers.LatestJob(hidden), workers.LatestJob(shown)
    behind.request(ran.append, "hidden")  # asked first, as the item list is at open
    ahead.request(ran.append, "shown")
    wait_idle(qtbot)
    assert ran == ["shown", "hidden"]


def test_a_hidden_read_waits_until_the_shown_result_is_delivered(qtbot) -> None:
    """What a shown result makes its view ask for (Review's open item) still goes first."""
    shown, hidden = views(qtbot)
    ran: list[str] = []
    matrix, item, behind = (
        workers.LatestJob(shown), workers.LatestJob(shown), workers.LatestJob(hidden)
    )  # fmt: skip
    matrix.result.connect(lambda _: item.request(ran.append, "shown item"))
    matrix.request(ran.append, "shown matrix")
    behind.request(ran.append, "hidden")
    wait_idle(qtbot)
    assert ran == ["shown matrix", "shown item", "hidden"]


def test_without_a_view_on_screen_reads_run_in_the_order_asked(qtbot) -> None:
    ran: list[int] = []
    jobs = [workers.LatestJob() for _ in range(3)]
    for n, job in enumerate(jobs):
        job.request(ran.append, n)
    wait_idle(qtbot)
    assert ran == [0, 1, 2]
