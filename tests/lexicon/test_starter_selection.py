"""The shipped starter is exactly what the reviewed selection script makes from its inputs."""

from __future__ import annotations

import csv
import importlib.util
import sys

import pytest

from labeler.data import STARTER_LEXICON, data_file
from tests.paths import SHARED

SCRIPT = data_file(STARTER_LEXICON).parent / "selection" / "build_starter.py"


@pytest.fixture(scope="module")
def selection():
    spec = importlib.util.spec_from_file_location("build_starter", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module.select(SHARED / "ontology")


def read(path, delimiter=","):
    with open(path, encoding="utf-8", newline="") as f:
        return [tuple(r) for r in list(csv.reader(f, delimiter=delimiter))[1:]]


def test_rerunning_the_selection_reproduces_the_shipped_files(selection):
    assert selection.rows == read(data_file(STARTER_LEXICON))
    assert selection.related == read(data_file("lexicon/related.csv"))
    assert selection.refused == read(SCRIPT.parent / "refused.tsv", "\t")


def test_no_row_a_person_refused_is_shipped(selection):
    refused = {(id_, synonym) for id_, synonym, _ in read(SCRIPT.parent / "rejects.tsv", "\t")}
    shipped = {(source, synonym) for _, synonym, _, source in selection.rows}
    assert refused and not refused & shipped
    reasons = {r[3] for r in selection.refused}
    assert {"too general", "adjective only", "ontology wording"} & reasons


def test_no_fly_anatomy_row_is_shipped(selection):
    assert not [r for r in selection.rows if r[3].startswith("FBbt:")]
