"""The project lexicon workflow (the functions the CLI and the GUI call), on real projects."""

from __future__ import annotations

import csv

import pytest

from labeler.errors import ConfigError
from labeler.lexicon import Lexicon, load_starter
from labeler.lexicon_project import (
    add_row,
    create_project,
    export_csv,
    import_csv,
    list_rows,
    plan_import,
    project_lint,
    remove_row,
)
from labeler.results import project_lexicon
from labeler.scoring import score_names
from labeler.store import KeyEntry, NewItem, Project


def write_csv(path, rows) -> str:
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(("canonical", "synonym", "relation"))
        writer.writerows(rows)
    return str(path)


@pytest.fixture
def empty(tmp_path):
    with create_project(tmp_path / "p", starter=False) as project:
        yield project


def test_a_new_project_starts_with_the_starter_and_eardrum_scores(tmp_path):
    with create_project(tmp_path / "p") as project:
        assert len(project.lexicon.rows()) == len(load_starter())
        project.items.add(NewItem(item_id="ear", key=[KeyEntry("tympanic membrane")]))
        score = score_names(["eardrum"], ["tympanic membrane"], project_lexicon(project, "ear"))
        assert score.f1 == 1.0


def test_opting_out_starts_empty_and_eardrum_scores_zero(empty):
    assert empty.lexicon.rows() == []
    assert score_names(["eardrum"], ["tympanic membrane"], project_lexicon(empty)).f1 == 0.0


def test_the_starter_survives_closing_and_reopening(tmp_path):
    create_project(tmp_path / "p").close()
    with Project.open(tmp_path / "p") as project:
        assert project_lexicon(project).same("windpipe", "trachea")


def test_add_list_search_and_remove(empty):
    assert add_row(empty, "trachea", "windpipe") == ("trachea", "windpipe", "same")
    add_row(empty, "radius", "ulna", "distinct")
    assert [r.synonym for r in list_rows(empty, "WIND")] == ["windpipe"]
    assert len(list_rows(empty)) == 2
    assert remove_row(empty, "the Windpipe", "trachea") == [("trachea", "windpipe", "same")]
    assert [(r.canonical, r.relation) for r in list_rows(empty)] == [("radius", "distinct")]


def test_add_refuses_duplicates_and_contradictions_and_writes_nothing(empty):
    add_row(empty, "pylorus", "pyloric sphincter", "distinct")
    with pytest.raises(ConfigError, match="distinct"):
        add_row(empty, "pylorus", "pyloric sphincter")
    with pytest.raises(ConfigError, match="already has"):
        add_row(empty, "pylorus", "pyloric sphincter", "distinct")
    assert len(empty.lexicon.rows()) == 1


def test_remove_of_a_missing_row_says_so(empty):
    with pytest.raises(ConfigError, match="no row 'cornea' = 'lens'"):
        remove_row(empty, "cornea", "lens")


def test_import_merges_and_reports_the_lint_it_brings(empty, tmp_path):
    add_row(empty, "cornea", "clear window")
    rows = [("lens", "clear window", ""), ("cornea", "clear window", "")]
    path = write_csv(tmp_path / "in.csv", rows)
    plan = import_csv(empty, path)
    assert plan.rows == (("lens", "clear window", "same"),)
    assert plan.already_present == 1
    assert [(i.kind, i.surface) for i in plan.issues] == [("two_groups", "clear window")]
    assert [(i.kind) for i in project_lint(empty)] == ["two_groups"]


def test_import_that_contradicts_the_project_is_refused_whole(empty, tmp_path):
    add_row(empty, "ciliary body", "ciliary muscle", "distinct")
    path = write_csv(
        tmp_path / "bad.csv",
        [("iris", "iris diaphragm", "same"), ("ciliary muscle", "ciliary body", "same")],
    )
    with pytest.raises(ConfigError, match="contradict"):
        plan_import(empty, path)
    with pytest.raises(ConfigError):
        import_csv(empty, path)
    assert len(empty.lexicon.rows()) == 1


def test_export_then_import_into_a_fresh_project_round_trips(tmp_path):
    with create_project(tmp_path / "a") as source:
        add_row(source, "tympanic membrane", "ear drum membrane")
        written = export_csv(source, tmp_path / "out.csv")
        rows = [(r.canonical, r.synonym, r.relation) for r in list_rows(source)]
    assert written == len(rows) == len(load_starter()) + 1
    with create_project(tmp_path / "b", starter=False) as target:
        plan = import_csv(target, tmp_path / "out.csv")
        assert len(plan.rows) == written and plan.issues == ()
        assert [(r.canonical, r.synonym, r.relation) for r in list_rows(target)] == rows
    assert Lexicon.from_csv(tmp_path / "out.csv").same("ear drum membrane", "eardrum")
