"""Source licences: stored by migration 8, set by `labeler sources licence` and `add-item`."""

from __future__ import annotations

import pytest

from labeler.errors import LabelerError
from labeler.store import Project
from tests.cli.test_cli import labeler
from tests.paths import EXTERNAL_FIGURES

CREDIT = '"Bone cross-section" by Pbroks13, CC BY 3.0, via Wikimedia Commons.'


def _project_with_source(tmp_path, shared):
    project = Project.create(tmp_path / "p", name="p", id_prefix="bio")
    project.sources.add(shared / "bone-cross-section.svg", kind="svg", page_count=1)
    return project


@pytest.fixture
def shared():
    return EXTERNAL_FIGURES


def test_a_new_source_is_not_redistributable_until_someone_says_so(tmp_path, shared):
    with _project_with_source(tmp_path, shared) as project:
        (source,) = project.sources.all()
        assert (source.licence, source.attribution) == ("not-redistributable", "")
        changed = project.sources.set_licence(source.id, "cc-by-3.0", f"  {CREDIT} ")
        assert (changed.licence, changed.attribution) == ("cc-by-3.0", CREDIT)
    with Project.open(tmp_path / "p") as project:
        assert project.sources.get(source.id).licence == "cc-by-3.0"


def test_bad_licences_are_refused_with_the_choices(tmp_path, shared):
    with _project_with_source(tmp_path, shared) as project:
        (source,) = project.sources.all()
        with pytest.raises(LabelerError, match=r"choose one of cc-by-4\.0"):
            project.sources.set_licence(source.id, "cc-by-nc-4.0")
        with pytest.raises(LabelerError, match="requires an attribution"):
            project.sources.set_licence(source.id, "cc-by-sa-4.0", " ")
        with pytest.raises(LabelerError, match="no source with id 99"):
            project.sources.set_licence(99, "public-domain")
        assert project.sources.get(source.id).licence == "not-redistributable"


def test_cli_sets_and_lists_the_licence(tmp_path, shared):
    _project_with_source(tmp_path, shared).close()
    out = labeler(
        "sources",
        "licence",
        str(tmp_path / "p"),
        "1",
        "--licence",
        "cc-by-3.0",
        "--attribution",
        CREDIT,
    )
    assert out.returncode == 0, out.stderr
    listed = labeler("sources", "list", str(tmp_path / "p"))
    assert f"licence cc-by-3.0: {CREDIT}" in listed.stdout
    refused = labeler("sources", "licence", str(tmp_path / "p"), "1", "--licence", "cc-by-4.0")
    assert refused.returncode != 0 and "requires an attribution" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_add_item_records_the_licence_and_refuses_before_storing(tmp_path, shared):
    labeler("init", str(tmp_path / "p"))
    png = str(shared / "elbow-joint-gray329.png")
    bad = labeler(
        "add-item", str(tmp_path / "p"), "--pdf", png, "--page", "1", "--licence", "cc-by-4.0"
    )
    assert bad.returncode != 0 and "requires an attribution" in bad.stderr
    with Project.open(tmp_path / "p") as project:
        assert project.items.list() == []
    out = labeler(
        "add-item",
        str(tmp_path / "p"),
        "--pdf",
        png,
        "--page",
        "1",
        "--licence",
        "public-domain",
        "--attribution",
        "Gray's Anatomy plate 329",
    )
    assert out.returncode == 0, out.stderr
    with Project.open(tmp_path / "p") as project:
        (source,) = project.sources.all()
        assert (source.licence, source.attribution) == ("public-domain", "Gray's Anatomy plate 329")
