"""The Curate items list shows long subjects whole: wrapped into taller rows, never elided.

Rows are measured only while on screen (a 100k-item list must not be measured at each
reload), so the test also scrolls and checks that rows far off screen were left alone.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt

from labeler.store import KeyEntry, NewItem
from tests.ui.curate.test_curate_view import curate
from tests.ui.gui_helpers import wait_idle

LONG = (
    "Transverse section of a dicotyledonous stem showing its vascular bundles",
    "Chloroplast ultrastructure",  # one word wider than a narrow column
)
SHORT = "tooth"


def lines_needed(table, text: str, width: int) -> int:
    """How many lines ``text`` takes in ``width`` when wrapped (a word broken only if it must
    be), by Qt's own font metrics — not the code under test."""
    metrics = table.fontMetrics()
    flags = Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextWrapAnywhere
    height = metrics.boundingRect(QRect(0, 0, width, 100000), flags, text).height()
    return round(height / metrics.lineSpacing())


def fill(qtbot, window, subjects: list[str]) -> None:
    project = window.session.require_project()
    for number, subject in enumerate(subjects):
        project.items.add(NewItem(item_id=f"it-{number:05d}", subject=subject, key=[KeyEntry("x")]))
    window.session.items_changed.emit()
    table = curate(window).items.table
    qtbot.waitUntil(lambda: table.model().rowCount() == len(subjects), timeout=20000)
    wait_idle(qtbot)


def row_of(table, subject: str) -> int:
    return next(r for r, item in enumerate(table.model().items) if item.subject == subject)


def test_long_subjects_wrap_whole_at_1024_and_short_ones_keep_one_line(qtbot, window):
    window.resize(1024, 640)
    fill(qtbot, window, [SHORT, *LONG])
    table = curate(window).items.table
    one_line = table.verticalHeader().defaultSectionSize()
    width = table.columnWidth(0)
    assert width >= 70  # the narrow window still leaves the subjects a usable column
    qtbot.waitUntil(lambda: table.rowHeight(row_of(table, LONG[0])) > one_line)

    for subject in LONG:
        lines = lines_needed(table, subject, width - 8)
        assert lines >= 2, subject  # long enough to have been elided on one line
        height = table.rowHeight(row_of(table, subject))
        assert height >= lines * table.fontMetrics().lineSpacing(), (subject, lines, height)
    assert table.rowHeight(row_of(table, SHORT)) == one_line

    # a wider window: the column widens and the rows shrink back to what they need
    window.resize(1600, 900)
    wait_idle(qtbot)
    curate(window).splitter.setSizes([700, 600, 300])
    qtbot.waitUntil(lambda: table.columnWidth(0) > 2 * width)
    row = row_of(table, LONG[1])
    qtbot.waitUntil(lambda: table.rowHeight(row) == one_line)


def test_rows_are_measured_only_once_they_are_on_screen(qtbot, window):
    window.resize(1024, 640)
    subjects = [f"{LONG[0]} ({n})" for n in range(400)]
    fill(qtbot, window, subjects)
    table = curate(window).items.table
    one_line = table.verticalHeader().defaultSectionSize()
    qtbot.waitUntil(lambda: table.rowHeight(0) > one_line, timeout=20000)
    last = len(subjects) - 1
    assert table.rowHeight(last) == one_line  # off screen: not measured

    table.scrollToBottom()
    qtbot.waitUntil(lambda: table.rowHeight(last) > one_line, timeout=20000)
    assert table.rowHeight(last // 2) == one_line  # never on screen
