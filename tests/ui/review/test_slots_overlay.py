"""Review's slot overlay: a slot answer drawn on its slot image, numbers coloured by verdict."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.samples.book import layout
from labeler.slots import slot_order
from labeler.store import NewItem, NewResponse, Project
from tests.ui.gui_helpers import open_review
from ui.review.cells import Column
from ui.review.slots_overlay import RIGHT, WRONG, overlay_pixmap
from ui.review.view import ReviewView

HEART = next(f for f in layout() if f.spec.subject == "human heart")
# slot 1…6 of the heart, read off the figure; the answer swaps the atria (2 and 3)
GIVEN = ["Aorta", "Left atrium", "Right atrium", "Mitral valve", "Right ventricle", "Heart"]


@pytest.fixture
def view(tmp_path, qtbot, session):
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(
            project,
            data_file(SAMPLE_BOOK),
            HEART.page,
            HEART.clip,
            item=NewItem(subject="human heart"),
        )
        labels = [{"name": n, "marker": str(i)} for i, n in enumerate(GIVEN, 1)]
        project.responses.record(
            NewResponse(
                item.id,
                "m/reader",
                "slots",
                "h",
                "ok",
                labels=labels,
                parse_ok=True,
                settings={"slot_order": slot_order(project, item.id)},
            )
        )
        project.responses.record(NewResponse(item.id, "m/reader", "told", "h2", "ok"))
    return open_review(qtbot, session, tmp_path / "p")


def _select(view: ReviewView, condition: str) -> None:
    matrix = view.matrix_model
    view.matrix.setCurrentIndex(
        matrix.index(0, matrix.columns.index(Column("m/reader", condition)))
    )


def _pixel(pixmap, x: int, y: int) -> QColor:
    return pixmap.toImage().pixelColor(x, y)


def test_a_slot_answer_is_drawn_with_each_number_coloured_by_its_verdict(view, qtbot):
    _select(view, "slots")
    qtbot.waitUntil(lambda: view.slots.isVisible())
    answer = view.slots.answer
    assert answer is not None
    assert "Slot accuracy 3/6 (50%)" in view.slots.summary.text()
    pixmap = overlay_pixmap(answer)
    colours = {}
    for slot in answer.slots:
        x0, y0, _, y1 = slot.box
        colours[slot.mark] = _pixel(pixmap, x0, (y0 + y1) // 2)
    assert [m for m, c in colours.items() if c == RIGHT] == ["1", "4", "5"]
    assert [m for m, c in colours.items() if c == WRONG] == ["2", "3", "6"]


def test_a_card_condition_cell_hides_the_overlay(view, qtbot):
    _select(view, "slots")
    qtbot.waitUntil(lambda: view.slots.isVisible())
    _select(view, "told")
    qtbot.waitUntil(lambda: not view.slots.isVisible())
