"""Token usage travels as one record and is stored as three columns, unknown counts as NULL."""

from labeler.store import NewItem, NewResponse, Project
from labeler.usage import Usage


def test_usage_round_trips_through_the_store_as_three_columns(tmp_path):
    with Project.create(tmp_path / "p") as project:
        item = project.items.add(NewItem(subject="heart"))
        counted = NewResponse(item.id, "m", "told", "h1", "ok", usage=Usage(1200, 300, 250))
        unknown = NewResponse(item.id, "m", "blind", "h2", "ok", usage=Usage(output_tokens=7))
        first, second = project.responses.record(counted), project.responses.record(unknown)
        by_id = {r.id: r for r in project.responses.latest()}
        assert by_id[first].usage == Usage(1200, 300, 250)
        assert by_id[second].usage == Usage(None, 7, None)
        rows = project.db.execute(
            "SELECT input_tokens, output_tokens, reasoning_tokens FROM responses ORDER BY id"
        ).fetchall()
    assert [tuple(r) for r in rows] == [(1200, 300, 250), (None, 7, None)]
