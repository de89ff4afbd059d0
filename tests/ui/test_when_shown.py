"""ReloadWhenShown: a hidden view is only marked stale; it reloads once when shown, a shown one
at once (the rule Review, Leaderboard, Agreement and the Lexicon's suggestions share)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ui.when_shown import ReloadWhenShown


def test_a_hidden_view_reloads_once_on_show_and_a_shown_one_at_once(qtbot):
    view = QWidget()
    qtbot.addWidget(view)
    reloads: list[int] = []

    def reload() -> None:
        when_shown.stale = False
        reloads.append(len(reloads))

    when_shown = ReloadWhenShown(view, reload)
    when_shown.invalidate()
    when_shown.invalidate("item-1")  # any signal's arguments
    assert reloads == [] and when_shown.stale  # hidden: nothing read yet

    view.show()
    qtbot.waitExposed(view)
    assert len(reloads) == 1 and not when_shown.stale  # two changes, one reload
    view.hide()
    view.show()
    assert len(reloads) == 1  # shown again with nothing changed: no reload

    when_shown.invalidate()
    assert len(reloads) == 2  # shown: at once

    view.hide()
    when_shown.invalidate()
    assert len(reloads) == 2
    view.show()
    assert len(reloads) == 3
