"""NewItem: one record for a new item; "not given" fields take the curator's rules."""

import pytest

from labeler.errors import LabelerError
from labeler.store import KeyEntry, NewItem, Project


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p") as p:
        yield p


def test_pattern_not_given_is_c_with_markers_and_b_without(project):
    marked = project.items.add(NewItem(key=[KeyEntry("", marker="A"), KeyEntry("aorta")]))
    named = project.items.add(NewItem(key=[KeyEntry("aorta")]))
    chosen = project.items.add(NewItem(pattern="A", key=[KeyEntry("", marker="A")]))
    assert (marked.pattern, named.pattern, chosen.pattern) == ("C", "B", "A")
    assert project.items.add(NewItem()).pattern == "B" and project.items.key(named.id)


def test_every_field_is_stored_as_given(project):
    item = project.items.add(
        NewItem(
            page=2,
            clip=(1.5, 2.0, 30.0, 40.0),
            subject="heart",
            tier="core",
            status="ready",
            notes="from p. 137",
            dpi=150,
            erase_method="vector-text",
            erase_edits={"keep": [[1.0, 2.0, 3.0, 4.0]]},
            item_id="heart-1",
        )
    )
    assert (item.id, item.page, item.clip, item.subject, item.tier) == (
        "heart-1",
        2,
        (1.5, 2.0, 30.0, 40.0),
        "heart",
        "core",
    )
    assert (item.status, item.notes, item.dpi, item.erase_method) == (
        "ready",
        "from p. 137",
        150,
        "vector-text",
    )
    assert item.erase_edits == {"keep": [[1.0, 2.0, 3.0, 4.0]]}
    assert project.items.key(item.id) == []


def test_a_bad_field_is_refused_and_nothing_is_stored(project):
    with pytest.raises(LabelerError, match="tier must be one of"):
        project.items.add(NewItem(tier="gold", key=[KeyEntry("aorta")]))
    assert project.items.list() == []
