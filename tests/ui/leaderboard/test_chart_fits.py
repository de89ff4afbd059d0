"""The grounded-vs-recited chart at 1024×640: its legend reads whole, its scale reads in dark."""

from __future__ import annotations

from PySide6.QtGui import QPalette

from tests.ui.factory import heart_project
from tests.ui.gui_helpers import open_window, settle
from tests.ui.test_theme_indicators import TEXT_CONTRAST, contrast
from ui.leaderboard.chart import LEGEND
from ui.theme import apply_theme


def _leaderboard(qtbot, tmp_path, width: int, height: int):
    heart_project(tmp_path / "p").close()
    view = open_window(qtbot, tmp_path / "p", "leaderboard", width, height).views["leaderboard"]
    qtbot.waitUntil(lambda: view.board is not None and not view.computing, timeout=20_000)
    settle(qtbot)
    return view


def test_the_legend_wraps_whole_inside_the_chart_at_1024(qtbot, tmp_path):
    chart = _leaderboard(qtbot, tmp_path, 1024, 640).chart
    assert chart.rows and chart.width() < 400  # the narrow pane of a 1024 px window
    metrics = chart.fontMetrics()
    placed = chart.legend_layout()
    assert [label for *_, label in placed] == list(LEGEND)
    for _, text, label in placed:
        assert text.left() >= 0 and text.right() <= chart.width(), (label, text, chart.width())
        assert text.width() >= metrics.horizontalAdvance(label), label
    assert not placed[0][1].intersects(placed[1][1])
    # the bars start below the legend's last line, and the chart asked for that height
    assert chart.height() >= chart.heightForWidth(chart.width()) > placed[-1][1].bottom()


def test_the_scale_numbers_read_on_the_dark_theme(qtbot, tmp_path, qapp):
    apply_theme(qapp, "dark")
    try:
        chart = _leaderboard(qtbot, tmp_path, 1280, 800).chart
        image = chart.grab().toImage()
        ground = chart.palette().color(QPalette.ColorRole.Window)
        assert image.pixelColor(chart.width() - 2, chart.height() - 2) == ground
        # the numbers 0…100 sit in a 16 px strip under the bars: its strongest pixel is text
        top = int(chart.heightForWidth(chart.width())) - 30 + 8
        strip = [
            contrast(image.pixelColor(x, y), ground)
            for x in range(chart.width())
            for y in range(top, top + 16)
        ]
        assert max(strip) >= TEXT_CONTRAST, round(max(strip), 2)
    finally:
        apply_theme(qapp, "light")
