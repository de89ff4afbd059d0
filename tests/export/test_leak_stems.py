"""The leak check catches a source's distinctive stem and title however they are retyped.

Before issue #13, ``Hidden-Publisher-Atlas-2024.pdf`` was caught but the bare stem
``Hidden-Publisher-Atlas-2024`` in a subject passed.
"""

import time

import pytest
from export_fixtures import build_project, make_pdf

from labeler.errors import ExportError
from labeler.export.exporter import distinctive, export_project
from labeler.export.validate import LeakFinder, check_no_leaks


@pytest.fixture
def atlas(tmp_path):
    pdf = make_pdf(tmp_path / "Hidden-Publisher-Atlas-2024.pdf", 45)
    with build_project(tmp_path / "proj", pdf) as project:
        yield project


@pytest.mark.parametrize(
    "typed",
    [
        "Hidden-Publisher-Atlas-2024",
        "hidden publisher atlas 2024",
        "HIDDEN_PUBLISHER.ATLAS-2024",
        "Campbell Biology 11th edition",  # the title with its comma dropped
    ],
)
def test_a_distinctive_stem_or_title_in_a_subject_stops_the_export(atlas, tmp_path, typed):
    item = atlas.items.list(status="ready")[0]
    atlas.items.update(item.id, subject=f"heart, from {typed}")
    with pytest.raises(ExportError, match="contains private text"):
        export_project(atlas, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_ordinary_stems_are_not_private_text():
    for ordinary in ("biology", "textbook", "anatomy_textbook", "Heart"):
        assert not distinctive(ordinary), ordinary
    for named in ("Hidden-Publisher-Atlas-2024", "Atlas 2024", "campbell-biology-11e"):
        assert distinctive(named), named


def test_an_export_naming_only_ordinary_words_passes(tmp_path):
    pdf = make_pdf(tmp_path / "biology.pdf", 45)
    with build_project(tmp_path / "proj", pdf) as project:
        item = project.items.list(status="ready")[0]
        project.items.update(item.id, subject="biology of the heart")
        assert export_project(project, tmp_path / "out").n_items >= 1


def test_one_pass_over_many_private_strings():
    ids = [f"ITEM-{n:06d}-{n * 7919 % 100003:05d}" for n in range(2000)]
    text = ("an ordinary public line about the aorta and the left ventricle\n" * 3000).encode()
    finder = LeakFinder(ids)
    assert finder.find(f"x {ids[1234].lower().replace('-', ' ')} y") == {ids[1234].casefold()}
    start = time.perf_counter()
    check_no_leaks({"items.jsonl": text}, ids)
    assert time.perf_counter() - start < 2.0
    with pytest.raises(ExportError, match=ids[77].casefold()):
        check_no_leaks({"items.jsonl": text + ids[77].encode()}, ids)
