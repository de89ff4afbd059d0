"""The tables drawn in one pass (:mod:`ui.one_pass_table`) paint what their models hold.

Review's matrix and Curate's items list draw their visible cells themselves rather than
through a delegate; these tests read the pixels back from a real render, in both themes:
a cell's heat colour for its F1, the selected cell's frame, the list's selected row,
alternating rows and grid, as Qt's own table drew them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from tests.ui.factory import heart_project
from tests.ui.gui_helpers import open_review
from ui.curate.items_panel import ItemsPanel
from ui.review.cells import Column
from ui.review.style import heat
from ui.theme import apply_theme


@pytest.fixture(params=["light", "dark"])
def theme(request) -> Iterator[str]:
    app = QApplication.instance()
    style, pal, sheet = app.style().name(), app.palette(), app.styleSheet()
    apply_theme(app, request.param)
    yield request.param
    app.setStyle(style)
    app.setPalette(pal)
    app.setStyleSheet(sheet)


def near(a: QColor, b: QColor, tolerance: int = 2) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def rendered(widget) -> QImage:
    return widget.grab().toImage()


def test_the_matrix_paints_each_cells_heat_and_frames_the_selected_cell(
    tmp_path, qtbot, session, theme
):
    heart_project(tmp_path / "p").close()
    view = open_review(qtbot, session, tmp_path / "p")
    view.resize(1280, 800)
    matrix, model = view.matrix, view.matrix_model
    told_a = model.index(model.item_ids.index("heart"), model.columns.index(Column("m/a", "told")))
    told_b = model.index(model.item_ids.index("heart"), model.columns.index(Column("m/b", "told")))
    matrix.setCurrentIndex(told_b)
    qtbot.waitUntil(lambda: not view.loading, timeout=10_000)
    image = rendered(matrix.viewport())
    palette = matrix.palette()
    for index, f1 in ((told_a, 2 / 3), (told_b, 0.5)):  # "bicuspid valve" unknown; "aorta" alone
        rect = matrix.visualRect(index)
        corner = image.pixelColor(rect.left() + 4, rect.bottom() - 4)  # inside, off the text
        if index == told_b:  # selected: the frame in the highlight colour, the heat within
            frame = image.pixelColor(rect.left() + 2, rect.center().y())
            assert near(frame, palette.color(QPalette.ColorRole.Highlight)), frame.name()
        assert near(corner, heat(palette, f1)), (theme, corner.name(), heat(palette, f1).name())


def test_the_items_list_paints_selection_alternate_rows_and_grid(tmp_path, qtbot, session, theme):
    heart_project(tmp_path / "p").close()
    panel = ItemsPanel(session)
    qtbot.addWidget(panel)
    panel.resize(420, 400)
    session.open(tmp_path / "p")
    panel.show()
    qtbot.waitUntil(lambda: not panel.loading and panel.model.rowCount() == 2, timeout=10_000)
    panel.select_item(panel.model.items[0].id)
    table = panel.table
    table.setFocus()
    qtbot.waitUntil(lambda: table.selectionModel().isRowSelected(0), timeout=5_000)
    image = rendered(table.viewport())
    palette = table.palette()
    selected = table.visualRect(panel.model.index(0, 2))
    other = table.visualRect(panel.model.index(1, 2))
    assert near(
        image.pixelColor(selected.left() + 2, selected.top() + 2), palette.highlight().color()
    )
    alternate = palette.color(QPalette.ColorRole.AlternateBase)
    assert near(image.pixelColor(other.left() + 2, other.top() + 2), alternate)
    grid = image.pixelColor(other.right() + 1, other.center().y())  # visualRect leaves it out
    assert not near(grid, alternate) and not near(grid, palette.color(QPalette.ColorRole.Base))
    status = panel.model.data(panel.model.index(1, 1), Qt.ItemDataRole.ForegroundRole)
    assert status is not None
    text = table.visualRect(panel.model.index(1, 1))
    colours = {
        image.pixelColor(x, y).name()
        for x in range(text.left(), text.right())
        for y in range(text.top(), text.bottom())
    }
    assert any(near(QColor(c), status, 40) for c in colours), "the status is drawn in its colour"
