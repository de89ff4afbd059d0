"""Suggestions for a stored project: the published scores, each item's own lexicon."""

import pytest

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.suggestions import project_suggestions

KEY = [KeyEntry("esophagus"), KeyEntry("stomach")]


def answer(item_id: str, model: str, names: list[str], status: str = "ok") -> NewResponse:
    return NewResponse(
        item_id,
        model,
        "told",
        f"h-{item_id}-{model}-{status}",
        status,
        labels=[{"name": n} for n in names],
        parse_ok=status == "ok",
    )


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "proj", name="Demo", id_prefix="demo") as p:
        yield p


def pairs(project: Project) -> dict[tuple[str, str], tuple[str, ...]]:
    return {(s.pred, s.key): s.items for s in project_suggestions(project)}


def test_a_pair_accepted_for_one_item_is_offered_only_for_the_others(project):
    one = project.items.add(NewItem(subject="gut", key=KEY)).id
    two = project.items.add(NewItem(subject="gut", key=KEY)).id
    for item_id in (one, two):
        project.responses.record(answer(item_id, "m1", ["sophagus", "stomach"]))
    assert pairs(project) == {("sophagus", "esophagus"): tuple(sorted((one, two)))}

    project.lexicon.add("esophagus", "sophagus", item_id=one)
    assert pairs(project) == {("sophagus", "esophagus"): (two,)}

    project.lexicon.add("esophagus", "sophagus")  # now global: matched everywhere
    assert pairs(project) == {}


def test_an_item_distinct_row_silences_the_pair_for_that_item_only(project):
    one = project.items.add(NewItem(subject="gut", key=KEY)).id
    two = project.items.add(NewItem(subject="gut", key=KEY)).id
    for item_id in (one, two):
        project.responses.record(answer(item_id, "m1", ["sophagus", "stomach"]))
    project.lexicon.add("esophagus", "sophagus", relation="distinct", item_id=two)
    assert pairs(project) == {("sophagus", "esophagus"): (one,)}


def test_only_current_answers_count(project):
    item = project.items.add(NewItem(subject="gut", key=KEY)).id
    failed = project.items.add(NewItem(subject="gut", key=KEY)).id
    project.responses.record(answer(item, "m1", ["sophagus", "stomach"]))
    project.responses.record(answer(failed, "m1", ["sophagus"], status="api_error"))
    assert pairs(project) == {("sophagus", "esophagus"): (item,)}

    project.items.update(item, subject="digestive tract")  # the answer was for another subject
    assert pairs(project) == {}
