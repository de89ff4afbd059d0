"""The shipped starter lexicon against an anatomist's judgement.

``gold_pairs.csv`` was written from anatomy before the starter file was read: pairs a grader
accepts as one part (the starter must join them) and pairs of different parts (it must not).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from labeler.data import STARTER_LEXICON, data_file
from labeler.lexicon import load_starter
from labeler.lexicon_lint import lint_lexicon

GOLD = list(csv.DictReader((Path(__file__).parent / "gold_pairs.csv").open(encoding="utf-8")))
SAME = [(g["a"], g["b"]) for g in GOLD if g["judgement"] == "same"]
DISTINCT = [(g["a"], g["b"]) for g in GOLD if g["judgement"] == "distinct"]
SOURCE = re.compile(r"^(curated|UBERON:\d{7}|CL:\d{7}|GO:\d{7}|PO:\d{7}|AISM:\d{7})$")


@pytest.fixture(scope="module")
def starter():
    return load_starter()


def test_the_gold_set_is_large_enough():
    assert len(SAME) >= 60 and len(DISTINCT) >= 40


def test_the_starter_lints_clean(starter):
    assert lint_lexicon(starter) == []


def test_the_starter_is_broad(starter):
    assert 1_500 <= len(starter) <= 3_000
    assert len(starter.groups()) >= 800


@pytest.mark.parametrize(("a", "b"), SAME, ids=[f"{a}={b}" for a, b in SAME])
def test_the_starter_joins_names_a_grader_accepts(starter, a, b):
    assert starter.same(a, b)


@pytest.mark.parametrize(("a", "b"), DISTINCT, ids=[f"{a}|{b}" for a, b in DISTINCT])
def test_the_starter_never_joins_different_parts(starter, a, b):
    assert not starter.same(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("pylorus", "pyloric sphincter"),
        ("ciliary body", "ciliary muscle"),
        ("dorsal root ganglion", "sensory ganglion"),
        ("cornea", "lens"),
        ("colon", "large intestine"),
    ],
)
def test_the_reviewed_doubtful_rows_are_distinct_rows_now(starter, a, b):
    assert starter.distinct(a, b)


def test_every_row_names_its_source():
    with data_file(STARTER_LEXICON).open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(SOURCE.match(r["source"]) for r in rows)
    ontology = [r for r in rows if r["source"] != "curated"]
    assert len(ontology) > 1_000
    assert all(r["relation"] == "same" for r in ontology)  # distinct rows are judgements


def test_the_licences_of_the_sources_are_recorded_beside_the_csv():
    text = (data_file(STARTER_LEXICON).parent / "SOURCES.md").read_text(encoding="utf-8")
    for name, licence in [
        ("Uberon", "CC BY 3.0"),
        ("Cell Ontology", "CC BY 4.0"),
        ("Plant Ontology", "CC BY 4.0"),
        ("Gene Ontology", "CC BY 4.0"),
    ]:
        assert name in text and licence in text
