"""Curator agreement on real projects: keys compared through the models' scorer.

The expected agreements are a biologist's reading of the keys, written before running the
code: "bicuspid valve" is the mitral valve (the project lexicon says so), "mitochondria" is
the plural of "mitochondrion", "eardrum" is printed as the tympanic membrane's alternative,
while the nucleolus is a different part from the nucleus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from labeler.agreement import add_curator_key, curator_agreement, project_agreement
from labeler.errors import LabelerError
from labeler.store import KeyEntry, NewItem, Project
from tests.export.export_fixtures import PAGE, SOURCE_NAME, build_project, make_pdf

HEART = "campbell-p137-fig42-3"
CELL = "campbell-p140-fig6-8"


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / SOURCE_NAME, PAGE + 3)


@pytest.fixture
def project(tmp_path: Path, pdf: Path):
    with build_project(tmp_path / "proj", pdf) as p:
        yield p


def test_a_second_key_agrees_through_synonyms_plurals_and_alternatives(project):
    add_curator_key(
        project, HEART, "Grace", ["left atrium", "bicuspid valve", "aorta", "right ventricle"]
    )
    add_curator_key(project, CELL, "Grace", ["Nucleolus", "Mitochondria"])
    ear = project.items.add(
        NewItem(
            subject="human ear",
            key=[KeyEntry("Tympanic membrane", alternatives=("eardrum",)), KeyEntry("Cochlea")],
        )
    )
    add_curator_key(project, ear.id, "Linus", ["Eardrum", "cochlea"])

    found = curator_agreement(project)
    by_item = {c.item_id: c for c in found.comparisons}
    assert by_item[HEART].f1 == 1.0 and by_item[HEART].agrees
    assert by_item[ear.id].f1 == 1.0 and by_item[ear.id].second == "Linus"
    cell = by_item[CELL]
    assert cell.f1 == pytest.approx(0.5)
    assert cell.only_first == ("Nucleus",) and cell.only_second == ("Nucleolus",)
    assert found.mean_f1 == pytest.approx((1 + 1 + 0.5) / 3)
    assert [c.item_id for c in found.disagreements] == [CELL]


def test_keying_again_replaces_that_curators_key(project):
    add_curator_key(project, CELL, "Grace", ["Nucleolus"])
    add_curator_key(project, CELL, "Grace", ["nucleus", "mitochondrion"])
    (only,) = curator_agreement(project).comparisons
    assert only.f1 == 1.0
    assert curator_agreement(project, [HEART]).mean_f1 is None


def test_bad_curator_keys_are_refused(project):
    with pytest.raises(LabelerError, match="--curator NAME"):
        add_curator_key(project, CELL, "  ", ["nucleus"])
    with pytest.raises(LabelerError, match="at least one name"):
        add_curator_key(project, CELL, "Grace", [" "])
    with pytest.raises(LabelerError, match="no item with id"):
        add_curator_key(project, "nope", "Grace", ["nucleus"])


def test_two_projects_pair_figures_by_source_page_and_clip(project, tmp_path, pdf):
    with Project.create(tmp_path / "second", name="Second lab") as other:
        source = other.sources.add(pdf, kind="pdf", page_count=PAGE + 3)
        # the heart, clipped a little differently (overlap well above half)
        other.items.add(
            NewItem(
                source_id=source.id,
                page=PAGE,
                clip=(80.0, 95.0, 405.0, 495.0),
                key=[KeyEntry("Left atrium"), KeyEntry("Mitral valve"), KeyEntry("Aorta")],
            )
        )
        # a figure the first project does not have
        other.items.add(
            NewItem(source_id=source.id, page=2, clip=(0, 0, 100, 100), key=[KeyEntry("Aorta")])
        )
        found = project_agreement(project, other)
    (heart,) = found.comparisons
    assert heart.item_id == HEART and (heart.first, heart.second) == ("Heart figures", "Second lab")
    # three of four names shared: P 1, R 3/4
    assert heart.f1 == pytest.approx(6 / 7)
    assert heart.only_first == ("Right ventricle",) and heart.only_second == ()
    assert len(found.unpaired) == 1


def test_a_project_is_not_compared_with_itself(project):
    with Project.open(project.folder) as same, pytest.raises(LabelerError, match="twice"):
        project_agreement(project, same)
