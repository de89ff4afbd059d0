"""The window opens a PostgreSQL project's folder (``project.toml``) like a SQLite one."""

from __future__ import annotations

from pathlib import Path

from labeler.store import Project
from tests.ui.factory import build_project
from tests.ui.gui_helpers import wait_idle
from ui.main_window import MainWindow


def test_the_window_opens_a_team_project_and_reviews_its_answers(
    qtbot, tmp_path: Path, pg_server, monkeypatch
):
    url = pg_server.database()
    create = Project.create.__func__
    monkeypatch.setattr(
        Project,
        "create",
        classmethod(lambda cls, folder, name=None: create(cls, folder, name, db_url=url)),
    )
    build_project(tmp_path / "team", n_items=6, models=["m/a", "m/b"], images=True).close()
    monkeypatch.undo()
    assert (tmp_path / "team" / "project.toml").is_file()
    assert not (tmp_path / "team" / "project.sqlite").exists()

    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.open_project(tmp_path / "team")
    project = win.session.project
    assert project is not None and project.database_url == url
    win.show_view("review")
    win.show()
    qtbot.waitExposed(win)
    wait_idle(qtbot)
    review = win.views["review"]
    qtbot.waitUntil(lambda: review.answers_model.columnCount() == 8, timeout=20_000)
    assert [item.id for item in review.data.items] == [f"it-{n:04d}" for n in range(6)]
    wait_idle(qtbot)
    win.remember_state = False
