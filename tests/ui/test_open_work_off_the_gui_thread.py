"""Opening a project, or an item in Review, builds no lexicon and scores nothing on the GUI
thread, whatever view is on screen.

A project's lexicon grows with its curation (the bench project's has 2,000 rows); building
it, indexing it and linting it took ≈ 0.5 s of the GUI thread when a project opened: the
hidden Lexicon view re-read its rows at once, and Review built the lexicon the first time it
showed an item's answers; Review then scored the item's 40 answers there (≈ 0.1 s on a
realistic project). All of it now happens on workers.
"""

from __future__ import annotations

import threading
import uuid

import pytest

from labeler import lexicon as lexicon_module
from labeler import lexicon_lint
from labeler.results import cell_scoring, cell_summaries
from tests.ui.factory import build_project
from tests.ui.gui_helpers import open_window, wait_idle
from ui.lexicon import view as lexicon_view


@pytest.fixture
def built_on(monkeypatch) -> list[str]:
    """The thread ("gui" or "worker") each lexicon was built or indexed and each lint run on."""
    seen: list[str] = []

    def where() -> str:
        return "gui" if threading.current_thread() is threading.main_thread() else "worker"

    init, lint = lexicon_module.Lexicon.__init__, lexicon_lint.lint_lexicon
    index_init = lexicon_module._Index.__init__

    def recording_init(self, *args, **kwargs):
        seen.append(where())
        init(self, *args, **kwargs)

    def recording_index(self, *args, **kwargs):
        seen.append(where())
        index_init(self, *args, **kwargs)

    def recording_lint(*args, **kwargs):
        seen.append(where())
        return lint(*args, **kwargs)

    monkeypatch.setattr(lexicon_module.Lexicon, "__init__", recording_init)
    monkeypatch.setattr(lexicon_module._Index, "__init__", recording_index)
    monkeypatch.setattr(lexicon_view, "lint_lexicon", recording_lint)
    return seen


@pytest.mark.parametrize("view", ["review", "curate", "lexicon"])
def test_opening_a_project_builds_its_lexicon_only_on_workers(qtbot, tmp_path, built_on, view):
    with build_project(tmp_path / "p", n_items=20, models=["lab/a"], images=False) as project:
        unique = uuid.uuid4().hex[:8]  # rows no earlier test built: no cached lexicon
        for n in range(40):
            project.lexicon.add(f"organ {unique} {n}", f"part {unique} {n}", "same")
        cell_summaries(project)  # every score cached, as in a project scored before
    cell_scoring._lexicon.cache_clear()  # and this process starts cold, as a new one would
    cell_scoring._layered.cache_clear()
    built_on.clear()  # the set-up above ran on this thread too
    window = open_window(qtbot, tmp_path / "p", view)
    qtbot.waitExposed(window)
    wait_idle(qtbot)
    assert "gui" not in built_on
    if view != "curate":  # Curate's list reads the scores this process already kept
        assert built_on, "the lexicon was built"
    if view == "lexicon":
        rows = window.views["lexicon"].rows_model.rows
        assert (f"organ {unique} 0", f"part {unique} 0", "same") in rows
        assert "groups" in window.views["lexicon"].count.text()


def test_reviews_open_item_is_read_and_scored_on_a_worker(qtbot, tmp_path, monkeypatch):
    from ui.review import cells

    scored_on: list[str] = []
    score = cells.score_cell

    def recording(*args, **kwargs):
        on_gui = threading.current_thread() is threading.main_thread()
        scored_on.append("gui" if on_gui else "worker")
        return score(*args, **kwargs)

    monkeypatch.setattr(cells, "score_cell", recording)
    build_project(tmp_path / "p", n_items=6, models=["lab/a", "lab/b"], images=False).close()
    window = open_window(qtbot, tmp_path / "p", "review")
    review = window.views["review"]
    shown = lambda: not review.loading and bool(review.answers_model.columns)  # noqa: E731
    qtbot.waitUntil(shown, timeout=20_000)
    review.step(1)  # the next item: read and scored on the worker too
    qtbot.waitUntil(lambda: not review.loading, timeout=20_000)
    assert review.answers_model.columns and review.details.toPlainText()
    assert scored_on and set(scored_on) == {"worker"}
