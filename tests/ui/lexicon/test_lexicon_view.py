"""The Lexicon view: suggestions one click from the lexicon, CSV in and out, undo."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from labeler.lexicon import Lexicon
from labeler.store import KeyEntry, NewItem, Project
from tests.ui.factory import answer
from tests.ui.gui_helpers import wait_idle
from ui.lexicon.models import SuggestionsModel
from ui.lexicon.view import LexiconView
from ui.review.cells import Column
from ui.review.matrix import SummaryRole
from ui.review.view import ReviewView


def spelling_project(folder) -> Project:
    """Two models write "sophagus" (first letter lost) for the key's "esophagus" (the fuzzy
    guard's first-3 rule rejects it), so it is a top suggestion; F1 is 0.5 until promoted."""
    project = Project.create(folder, name="gut")
    project.items.add(
        NewItem(item_id="gut", subject="the gut", key=[KeyEntry("esophagus"), KeyEntry("stomach")])
    )
    for model in ("m/a", "m/b"):
        project.responses.record(answer("gut", model, "told", ["sophagus", "stomach"]))
    return project


@pytest.fixture
def views(tmp_path, qtbot, session):
    spelling_project(tmp_path / "p").close()
    session.open(tmp_path / "p")
    lexicon = LexiconView(session)
    review = ReviewView(session)
    for widget in (lexicon, review):
        qtbot.addWidget(widget)
        widget.resize(1280, 800)
    lexicon.show()
    qtbot.waitUntil(lambda: lexicon.suggestions_model.rowCount() > 0, timeout=10_000)
    yield lexicon, review
    for widget in (lexicon, review):
        widget.close()


def review_f1(review: ReviewView, qtbot, column: Column) -> float:
    """The F1 Review shows for item 0 in ``column`` once it has re-read the project.

    Review re-reads on a worker, and only while it is on screen.
    """
    review.show()
    qtbot.waitUntil(lambda: not review.loading, timeout=10_000)
    index = review.matrix_model.index(0, review.matrix_model.columns.index(column))
    return index.data(SummaryRole).f1


def click(view, row: int, column: int, qtbot) -> None:
    index = view.suggestions_model.index(row, column)
    rect = view.suggestions.visualRect(index)
    qtbot.mouseClick(view.suggestions.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_one_click_same_promotes_the_suggestion_and_scores_update(views, qtbot):
    lexicon, review = views
    first = lexicon.suggestions_model.suggestions[0]
    assert (first.pred, first.key, first.n_models) == ("sophagus", "esophagus", 2)
    told = Column("m/a", "told")
    assert review_f1(review, qtbot, told) == pytest.approx(0.5)

    click(lexicon, 0, SuggestionsModel.SAME, qtbot)

    project = lexicon.session.project
    assert project.lexicon.rows() == [("esophagus", "sophagus", "same")]
    wait_idle(qtbot)  # the rows are re-read on a worker
    assert lexicon.rows_model.rows == [("esophagus", "sophagus", "same")]
    assert review_f1(review, qtbot, told) == pytest.approx(1.0)
    assert all(s.pred != "sophagus" for s in lexicon.suggestions_model.suggestions)

    lexicon.session.undo_stack.undo()
    assert project.lexicon.rows() == []
    wait_idle(qtbot)
    assert lexicon.rows_model.rows == []
    assert review_f1(review, qtbot, told) == pytest.approx(0.5)


def test_one_click_distinct_records_a_distinct_pair(views, qtbot):
    lexicon, _ = views
    click(lexicon, 0, SuggestionsModel.DISTINCT, qtbot)
    assert lexicon.session.project.lexicon.rows() == [("esophagus", "sophagus", "distinct")]
    qtbot.waitUntil(lambda: lexicon.suggestion_worker is None)
    assert all(s.pred != "sophagus" for s in lexicon.suggestions_model.suggestions)


def test_csv_import_export_round_trip_and_search(views, tmp_path, qtbot):
    lexicon, review = views
    source = tmp_path / "in.csv"
    source.write_text(
        "canonical,synonym,relation\n"
        "esophagus,sophagus,\n"
        "mitral valve,bicuspid valve,same\n"
        "nucleus,nucleolus,distinct\n",
        encoding="utf-8",
    )
    lexicon.import_csv(str(source))
    rows = lexicon.session.project.lexicon.rows()
    assert ("esophagus", "sophagus", "same") in rows and len(rows) == 3
    wait_idle(qtbot)
    assert lexicon.count.text().startswith("2 groups · 1 distinct pairs")
    assert review_f1(review, qtbot, Column("m/b", "told")) == pytest.approx(1.0)

    out = tmp_path / "out.csv"
    lexicon.export_csv(str(out))
    assert Lexicon.from_csv(out).rows() == Lexicon.from_rows(rows).rows()

    lexicon.search.setText("bicuspid")
    wait_idle(qtbot)
    assert lexicon.rows_model.rows == [("mitral valve", "bicuspid valve", "same")]

    lexicon.session.undo_stack.undo()  # the whole import is one step
    assert lexicon.session.project.lexicon.rows() == []


def test_a_contradicting_import_is_refused_whole(views, tmp_path):
    lexicon, _ = views
    lexicon.session.project.lexicon.add("nucleus", "nucleolus", "distinct")
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "canonical,synonym,relation\nstomach,gaster,same\nnucleus,nucleolus,same\n",
        encoding="utf-8",
    )
    lexicon.import_csv(str(bad))
    assert lexicon.session.project.lexicon.rows() == [("nucleus", "nucleolus", "distinct")]
    assert lexicon.session.undo_stack.count() == 0


def test_rows_are_added_and_removed_from_the_form(views, qtbot):
    lexicon, _ = views
    lexicon.canonical.setText("stomach")
    lexicon.synonym.setText("gaster")
    qtbot.keyClick(lexicon.synonym, Qt.Key.Key_Return)
    assert lexicon.session.project.lexicon.rows() == [("stomach", "gaster", "same")]
    wait_idle(qtbot)  # the table shows the new row a worker's read later
    lexicon.rows.selectRow(0)
    lexicon.remove_selected()
    assert lexicon.session.project.lexicon.rows() == []


def test_a_chain_shows_as_one_group_and_search_keeps_the_whole_group(views, qtbot):
    lexicon, _ = views
    project = lexicon.session.project
    for canonical, synonym, relation in [
        ("stomach", "gaster", "same"),
        ("mitral valve", "bicuspid valve", "same"),
        ("bicuspid valves", "left AV valve", "same"),  # joins the mitral group via the plural
        ("nucleus", "nucleolus", "distinct"),
    ]:
        project.lexicon.add(canonical, synonym, relation)
    lexicon.session.lexicon_changed.emit()
    wait_idle(qtbot)
    model = lexicon.rows_model
    shown = [[model.index(r, c).data() for c in range(4)] for r in range(model.rowCount())]
    assert shown == [
        ["mitral valve", "mitral valve", "bicuspid valve", "same"],
        ["", "bicuspid valves", "left AV valve", "same"],
        ["stomach", "stomach", "gaster", "same"],
        ["Distinct pairs", "nucleus", "nucleolus", "distinct"],
    ]
    assert lexicon.count.text() == "2 groups · 1 distinct pairs"
    tip = model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert (
        tip
        == "4 names, all the same: mitral valve = bicuspid valve = bicuspid valves = left AV valve"
    )
    lexicon.search.setText("left av")
    wait_idle(qtbot)
    assert model.rows == [
        ("mitral valve", "bicuspid valve", "same"),
        ("bicuspid valves", "left AV valve", "same"),
    ]
    assert model.index(0, 0).data() == "mitral valve"


def test_a_lexicon_edit_during_reviews_first_read_is_not_lost(
    tmp_path, qtbot, session, monkeypatch
):
    """Review starts reading when it is built; a lexicon edit that lands before that read is
    delivered must still rescore every cell (the read may have taken the lexicon from before),
    not only the open item's, which is read after."""
    import threading

    import ui.review.view as review_module

    spelling_project(tmp_path / "p").close()
    session.open(tmp_path / "p")
    read, edited = threading.Event(), threading.Event()
    real = review_module.load_review

    def read_then_wait(folder):
        snapshot = real(folder)  # the lexicon as it was
        read.set()
        edited.wait(10)
        return snapshot

    monkeypatch.setattr(review_module, "load_review", read_then_wait)
    review = ReviewView(session)
    qtbot.addWidget(review)
    review.resize(1280, 800)
    qtbot.waitUntil(read.is_set, timeout=10_000)  # read, not yet delivered
    session.require_project().lexicon.add("esophagus", "sophagus")
    session.lexicon_changed.emit()
    edited.set()
    assert review_f1(review, qtbot, Column("m/a", "told")) == pytest.approx(1.0)
    assert review.data.cells.get(("gut", "m/a", "told")).f1 == pytest.approx(1.0)
    review.close()
