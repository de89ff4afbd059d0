"""The Lexicon view shows the lint of the project's lexicon: a count and a list, never a block."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from labeler.lexicon_project import add_row, create_project
from tests.ui.gui_helpers import wait_idle
from ui import errors, workers
from ui.lexicon.commands import LexiconEdit
from ui.lexicon.view import LexiconView
from ui.session import Session


@pytest.fixture
def session(tmp_path, qtbot, qapp):
    errors.set_interactive(False)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "qs"))
    s = Session()
    yield s
    qtbot.waitUntil(lambda: not workers.busy(), timeout=20_000)
    s.close()
    errors.set_interactive(True)


def open_view(session, qtbot, folder) -> LexiconView:
    session.open(folder)
    view = LexiconView(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    wait_idle(qtbot)  # the rows and their lint are read on a worker
    return view


def test_a_clean_starter_project_shows_no_issues(tmp_path, qtbot, session):
    create_project(tmp_path / "p").close()
    view = open_view(session, qtbot, tmp_path / "p")
    assert view.lint_count.text() == "Lint: no issues"
    assert view.lint_list.isHidden() and view.lint_list.count() == 0
    assert "groups" in view.count.text()


def test_issues_are_counted_and_listed_and_follow_undo(tmp_path, qtbot, session):
    with create_project(tmp_path / "p", starter=False) as project:
        add_row(project, "cornea", "clear window")
        add_row(project, "sepal", "sepals")
    view = open_view(session, qtbot, tmp_path / "p")
    assert view.lint_count.text() == "Lint: 1 issue(s) (self synonym)"
    assert view.lint_list.isVisible()

    # The lint warns but does not block: the row that merges two groups goes in.
    assert view.add_rows([("lens", "clear window", "same")], "Add lens")
    wait_idle(qtbot)
    assert view.lint_count.text() == "Lint: 2 issue(s) (self synonym, two groups)"
    lines = [view.lint_list.item(i).text() for i in range(view.lint_list.count())]
    assert any("'clear window' is a synonym of 'cornea' and 'lens'" in line for line in lines)
    assert any("'sepal' and 'sepals' are one name" in line for line in lines)

    session.undo_stack.undo()
    wait_idle(qtbot)
    assert view.lint_count.text() == "Lint: 1 issue(s) (self synonym)"
    view.search.setText("cornea")  # searching filters the rows, not the lint
    wait_idle(qtbot)
    assert view.lint_list.count() == 1


def test_importing_a_csv_reports_its_lint_and_refuses_a_contradiction(tmp_path, qtbot, session):
    create_project(tmp_path / "p").close()
    view = open_view(session, qtbot, tmp_path / "p")
    messages: list[str] = []
    session.status_message.connect(messages.append)
    good = tmp_path / "good.csv"
    good.write_text(
        "canonical,synonym,relation\nspleen,lymphoid organ,\nthymus,lymphoid organ,\n", "utf-8"
    )
    view.import_csv(str(good))
    wait_idle(qtbot)
    assert messages[-1].endswith("(0 already present; 1 new lint issue(s))")
    assert view.lint_count.text() == "Lint: 1 issue(s) (two groups)"

    bad = tmp_path / "bad.csv"
    bad.write_text("canonical,synonym,relation\nciliary muscle,ciliary body,same\n", "utf-8")
    rows_before = len(session.require_project().lexicon.rows())
    steps_before = session.undo_stack.count()
    view.import_csv(str(bad))
    assert len(session.require_project().lexicon.rows()) == rows_before
    assert session.undo_stack.count() == steps_before
    assert isinstance(session.undo_stack.command(steps_before - 1), LexiconEdit)
