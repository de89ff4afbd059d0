"""Key-editing rules in the core: merge, split, typed markers, and the store's marker rule."""

import pytest

from labeler.curation import clean_marker, merge_entries, split_entry
from labeler.errors import LabelerError
from labeler.store import KeyEntry, NewItem, Project


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "proj", name="Demo", id_prefix="demo") as p:
        yield p


def test_merge_joins_names_unites_boxes_and_keeps_the_first_anchor_and_marker():
    one = merge_entries(
        [
            KeyEntry("left", (10, 20, 40, 30), None, None, "vector"),
            KeyEntry("", (5, 32, 30, 44), (90, 50), "B", "vector"),
            KeyEntry("ventricle", None, (70, 70), "C", "ocr"),
        ]
    )
    assert one == KeyEntry("left ventricle", (5, 20, 40, 44), (90, 50), "B", "manual")
    assert merge_entries([KeyEntry("aorta")]).bbox is None


def test_split_at_punctuation_first_and_shares_the_box_by_length():
    parts = split_entry(KeyEntry("aorta, vena cavae", (0, 0, 150, 10), (200, 5), "A", "vector"))
    assert [p.name for p in parts] == ["aorta", "vena cavae"]
    assert [p.bbox for p in parts] == [(0, 0, 50.0, 10), (50.0, 0, 150, 10)]
    assert [(p.anchor, p.marker, p.origin) for p in parts] == [
        ((200, 5), "A", "manual"),
        (None, None, "manual"),
    ]


def test_split_falls_back_to_spaces_and_leaves_one_word_alone():
    assert [p.name for p in split_entry(KeyEntry("left ventricle"))] == ["left", "ventricle"]
    lone = KeyEntry("aorta", (0, 0, 5, 5))
    assert split_entry(lone) == [lone]


@pytest.mark.parametrize(
    ("typed", "stored"), [("a)", "A"), ("(b", "B"), (" C. ", "C"), ("", None), ("  ", None)]
)
def test_clean_marker_accepts_printed_forms(typed, stored):
    assert clean_marker(typed) == stored


@pytest.mark.parametrize("typed", ["AB", "1", "é", "Ω", "a b"])
def test_clean_marker_refuses_anything_but_one_letter(typed):
    with pytest.raises(LabelerError, match="a marker is one letter"):
        clean_marker(typed)


@pytest.mark.parametrize("marker", ["a", "AB", "", "1", "É"])
def test_the_store_refuses_a_bad_marker_and_keeps_the_old_key(project, marker):
    item = project.items.add(NewItem(key=[KeyEntry("aorta", marker="A")]))
    with pytest.raises(LabelerError, match="a marker is one letter"):
        project.items.set_key(item.id, [KeyEntry("vena cava"), KeyEntry("atrium", marker=marker)])
    assert project.items.key(item.id) == [KeyEntry("aorta", marker="A")]
    with pytest.raises(LabelerError, match="a marker is one letter"):
        project.items.add(NewItem(key=[KeyEntry("atrium", marker=marker)]))
    assert [i.id for i in project.items.list()] == [item.id]
