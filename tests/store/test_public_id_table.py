"""``project.public_ids`` and ``responses.latest_ids``: the SQL results and export ids use."""

from __future__ import annotations

from labeler.status import ResponseStatus
from labeler.store import NewItem, NewResponse, Project
from labeler.store.public_ids import format_public_id


def test_numbers_are_stored_read_replaced_and_owned(tmp_path):
    with Project.create(tmp_path / "p", id_prefix="abc") as project:
        for item_id in ("x", "y"):
            project.items.add(NewItem(item_id=item_id, subject=item_id))
        table = project.public_ids
        assert table.numbers() == {} and table.owner(1) is None
        table.add({"x": 1, "y": 2})
        assert table.labels(project.id_prefix) == {"x": "ABC-1", "y": "ABC-2"}
        table.set("y", 7)
        assert table.numbers() == {"x": 1, "y": 7}
        assert (table.owner(7), table.owner(2)) == ("y", None)
    with Project.open(tmp_path / "p") as reopened:
        assert reopened.public_ids.numbers() == {"x": 1, "y": 7}
    assert format_public_id("ABC", 12) == "ABC-12"


def test_latest_ids_name_each_cells_newest_response(tmp_path):
    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="i", subject="s"))
        ids = [
            project.responses.record(NewResponse("i", model, "told", f"h{n}", ResponseStatus.OK))
            for n, model in enumerate(("m/a", "m/a", "m/b"))
        ]
        assert sorted(project.responses.latest_ids()) == [(ids[1], "i"), (ids[2], "i")]
