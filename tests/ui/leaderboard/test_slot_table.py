"""The Leaderboard shows the slot table (both slot conditions, gap, chance, F1 − slots)
with the numbers ``labeler report`` computes, and hides it when no slot answer exists."""

from __future__ import annotations

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from ui.leaderboard.view import LeaderboardView

KEY = [KeyEntry("aorta", bbox=(10, 10, 40, 20)), KeyEntry("left atrium", bbox=(10, 40, 40, 50))]


def _answer(item_id: str, condition: str, names: list[str]) -> NewResponse:
    labels = [{"name": n, "marker": str(i)} for i, n in enumerate(names, 1)]
    return NewResponse(
        item_id,
        "lab/vision",
        condition,
        f"{item_id}-{condition}",
        "ok",
        labels=labels,
        parse_ok=True,
        settings={"slot_order": [0, 1]},
    )


def test_the_slot_table_appears_with_the_reports_numbers(tmp_path, qtbot, session):
    with Project.create(tmp_path / "p") as project:
        for item_id in ("a", "b"):
            project.items.add(NewItem(item_id=item_id, subject="heart", key=KEY))
            # with the figure every name is placed right; without it the two are swapped
            project.responses.record(_answer(item_id, "slots", ["aorta", "left atrium"]))
            project.responses.record(_answer(item_id, "slots-no-image", ["left atrium", "aorta"]))
            project.responses.record(_answer(item_id, "told", ["aorta"]))
    session.open(tmp_path / "p")
    view = LeaderboardView(session)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.board is not None, timeout=20_000)
    assert view.slots_box.isVisible()
    cells = [view.slots.item(0, c).text() for c in range(view.slots.columnCount())]
    # names known both ways (F1 1.0), placed only with the figure; chance = 2 hits / 4 = 50%
    assert cells == [
        "lab/vision",
        "100.0 [100.0, 100.0]",
        "0.0 [0.0, 0.0]",
        "100.0 [100.0, 100.0]",
        "50.0 [50.0, 50.0]",
        "0.0 [0.0, 0.0]",
    ]
    assert view.table.rowCount() == 1  # the card's table: told only, no slot columns


def test_no_slot_answers_no_slot_table(tmp_path, qtbot, session):
    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="a", subject="heart", key=KEY))
        project.responses.record(_answer("a", "told", ["aorta"]))
    session.open(tmp_path / "p")
    view = LeaderboardView(session)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: view.board is not None, timeout=20_000)
    assert not view.slots_box.isVisible()
