"""Curate: marking an item ready while key text is still readable asks the curator why."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QInputDialog

from labeler.store import KeyEntry
from tests.ui.gui_helpers import LABELS, add_item_keeping_a_label, wait_idle


class Answers:
    """What the reason dialog answers, in order, and each question it was asked."""

    def __init__(self) -> None:
        self.queued: list[tuple[str, bool]] = []
        self.asked: list[str] = []

    def append(self, answer: tuple[str, bool]) -> None:
        self.queued.append(answer)

    def get_text(self, parent, title, label, *args, **kwargs) -> tuple[str, bool]:
        self.asked.append(label)
        return self.queued.pop(0)


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Answers:
    found = Answers()
    monkeypatch.setattr(QInputDialog, "getText", found.get_text)
    return found


def test_readable_key_text_needs_a_reason_before_ready(qtbot, window, tmp_path, answers):
    project = window.session.require_project()
    item, label = add_item_keeping_a_label(project, tmp_path)
    project.items.set_key(item.id, [*project.items.key(item.id), KeyEntry(label.name)])
    window.session.items_changed.emit()
    view = window.views["curate"]
    view.items.select_item(item.id)
    wait_idle(qtbot)
    combo = view.form.combos["status"]

    answers.append(("", False))  # the curator cancels
    combo.setCurrentIndex(combo.findData("ready"))
    combo.activated.emit(combo.currentIndex())
    assert project.items.get(item.id).status == "draft"
    assert combo.currentData() == "draft"
    assert label.name in answers.asked[-1]

    answers.append(("the word is the figure's title", True))
    combo.setCurrentIndex(combo.findData("ready"))
    combo.activated.emit(combo.currentIndex())
    assert project.items.get(item.id).status == "ready"
    check = project.residual_checks.get(item.id)
    assert check.override_why == "the word is the figure's title" and check.override_by
    assert label.name in LABELS


def test_an_unchecked_question_is_read_back_in_a_job_before_ready(qtbot, window, answers):
    import pymupdf

    from labeler.store import NewItem

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=120)
    page.insert_text((40, 70), "Aorta", fontsize=28)
    png = page.get_pixmap(dpi=100).tobytes("png")
    project = window.session.require_project()
    item = project.items.add(  # as an import or an older project stores it: never checked
        NewItem(
            subject="heart",
            key=[KeyEntry("Aorta")],
            question_png=png,
            answer_png=png,
            erase_method="ocr",
        )
    )
    assert project.residual_checks.get(item.id) is None
    window.session.items_changed.emit()
    view = window.views["curate"]
    view.items.select_item(item.id)
    wait_idle(qtbot)
    combo = view.form.combos["status"]
    answers.append(("", False))
    combo.setCurrentIndex(combo.findData("ready"))
    combo.activated.emit(combo.currentIndex())
    assert combo.currentData() == "draft"  # nothing decided on the GUI thread
    qtbot.waitUntil(lambda: bool(answers.asked), timeout=60_000)  # OCR ran in a job, then asked
    assert "Aorta" in answers.asked[-1]
    assert project.residual_checks.get(item.id).method == "pdf-text+ocr"
    assert project.items.get(item.id).status == "draft"
