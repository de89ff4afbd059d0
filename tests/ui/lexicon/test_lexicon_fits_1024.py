"""At 1024×640 the suggestions' Same / Distinct buttons are in view, names readable (gui11)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.gui_helpers import clipped_buttons, open_window, resize_settled
from tests.ui.lexicon.test_lexicon_view import spelling_project
from ui.lexicon.models import SuggestionsModel


def test_the_one_click_buttons_stay_in_view_at_1024_and_every_column_shows_at_1280(qtbot, tmp_path):
    spelling_project(tmp_path / "p").close()
    window = open_window(qtbot, tmp_path / "p", "lexicon", 1024, 640)
    view = window.views["lexicon"]
    qtbot.waitUntil(lambda: view.suggestions_model.rowCount() > 0, timeout=10_000)
    table, model = view.suggestions, view.suggestions_model

    def check(width: int, height: int) -> list[int]:
        resize_settled(qtbot, window, width, height)
        shown = [c for c in range(model.columnCount()) if not table.isColumnHidden(c)]
        for column in shown:
            rect = table.visualRect(model.index(0, column))
            assert rect.left() >= 0 and rect.right() < table.viewport().width(), (width, column)
        for row in range(model.rowCount()):
            for column in (0, 1):  # the names read whole, not "esoph…"
                text = model.index(row, column).data()
                needed = table.fontMetrics().horizontalAdvance(text) + 8
                assert table.columnWidth(column) >= needed, (width, text)
        assert clipped_buttons(view, window) == [], width
        return shown

    narrow = check(1024, 640)
    assert {SuggestionsModel.SAME, SuggestionsModel.DISTINCT} <= set(narrow)
    # what stepped aside is in the row's tooltip
    tip = model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "m/a" in tip and "answers: 2" in tip
    assert check(1280, 800) == list(range(model.columnCount()))
