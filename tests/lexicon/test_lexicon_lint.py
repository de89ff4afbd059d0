"""The one-surface-one-group lint on small lexicons with known faults."""

from __future__ import annotations

from labeler.lexicon import Lexicon, LexiconRow
from labeler.lexicon_lint import lint_lexicon


def kinds(rows) -> list[tuple[str, str]]:
    return [(i.kind, i.surface) for i in lint_lexicon(rows)]


def test_a_surface_under_two_canonical_names_is_reported():
    lexicon = Lexicon.from_rows([("cornea", "clear window"), ("lens", "clear window")])
    issues = lint_lexicon(lexicon)
    assert [(i.kind, i.surface) for i in issues] == [("two_groups", "clear window")]
    assert "'cornea' and 'lens'" in issues[0].message
    assert {r.canonical for r in issues[0].rows} == {"cornea", "lens"}


def test_a_surface_shared_by_groups_a_row_equates_is_a_chain_not_an_issue():
    lexicon = Lexicon.from_rows(
        [
            ("mitral valve", "left AV valve"),
            ("bicuspid valve", "left AV valve"),
            ("mitral valve", "bicuspid valve"),
        ]
    )
    assert lint_lexicon(lexicon) == []


def test_a_chain_through_a_canonical_name_is_not_an_issue():
    lexicon = Lexicon.from_rows([("mitral valve", "bicuspid valve"), ("bicuspid valves", "MV")])
    assert lint_lexicon(lexicon) == []


def test_plural_and_spelling_variants_count_as_one_surface():
    rows = [("pylorus", "pyloric regions"), ("antrum", "pyloric region")]
    assert kinds(Lexicon.from_rows(rows)) == [("two_groups", "pyloric regions")]


def test_self_synonyms_are_reported():
    rows = [("sepal", "sepals"), ("Z line", "Z-line"), ("loop of Henle", "Henle's loop")]
    assert [k for k, _ in kinds(Lexicon.from_rows(rows))] == ["self_synonym"] * 3


def test_a_distinct_row_that_same_rows_contradict_is_reported_from_plain_rows():
    rows = [
        LexiconRow("pyloric sphincter", "pylorus"),
        LexiconRow("pylorus", "pyloric canal"),
        LexiconRow("pyloric sphincter", "pyloric canal", "distinct"),
    ]
    issues = lint_lexicon(rows)
    assert [(i.kind, i.rows) for i in issues] == [("contradiction", (rows[2],))]


def test_a_clean_lexicon_has_no_issues():
    rows = [("eardrum", "tympanic membrane"), ("radius", "ulna", "distinct")]
    assert lint_lexicon(Lexicon.from_rows(rows)) == []
