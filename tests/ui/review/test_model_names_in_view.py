"""A model's name over its condition columns stays in view when they are wider than the
view (one model's six conditions in a 1024 px window), and follows a sideways scroll (gui11)."""

from __future__ import annotations

from labeler.prompts import ALL_CONDITIONS
from labeler.store import KeyEntry, NewItem, Project
from tests.ui.factory import answer
from tests.ui.gui_helpers import open_window, settle

MODEL = "lab/some-rather-long-model-name"


def test_the_model_name_is_whole_in_view_before_and_after_scrolling(qtbot, tmp_path):
    with Project.create(tmp_path / "p", name="six") as project:
        key = [KeyEntry("aorta"), KeyEntry("left atrium")]
        project.items.add(NewItem(item_id="heart", subject="heart", key=key))
        for condition in ALL_CONDITIONS:
            project.responses.record(answer("heart", MODEL, condition, ["aorta"]))
    view = open_window(qtbot, tmp_path / "p", "review", 1024, 640).views["review"]
    qtbot.waitUntil(
        lambda: not view.loading and view.answers_model.columnCount() > 0, timeout=20_000
    )
    settle(qtbot)

    table = view.answers
    header = table.horizontalHeader()
    last = view.answers_model.columnCount() - 1
    assert last + 1 == len(ALL_CONDITIONS)
    assert header.sectionSize(0) * (last + 1) > header.viewport().width()  # wider than the view
    name = MODEL.rsplit("/", 1)[-1]
    bold = header.font()
    bold.setBold(True)
    needed = type(header.fontMetrics())(bold).horizontalAdvance(name) + 8
    for scroll in (0, table.horizontalScrollBar().maximum()):
        table.horizontalScrollBar().setValue(scroll)
        qtbot.wait(20)
        rect = header.label_rect(0, last)
        assert rect.left() >= 0 and rect.right() < header.viewport().width(), (scroll, rect)
        assert rect.width() >= needed, (scroll, rect.width(), needed)
