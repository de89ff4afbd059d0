"""Related ontology synonyms are offered for key names, and only offered."""

from __future__ import annotations

from labeler.lexicon import Lexicon
from labeler.lexicon_project import add_row, create_project
from labeler.results import project_lexicon
from labeler.store import KeyEntry, NewItem
from labeler.suggestions import project_related_suggestions, related_suggestions


def test_related_synonyms_of_a_key_name_are_offered_with_their_source():
    found = related_suggestions(["Incus"])
    assert [(s.name, s.related, s.source) for s in found] == [
        ("Incus", "incus bone", "UBERON:0001688")
    ]


def test_a_pair_the_lexicon_already_decides_is_not_offered():
    decided = Lexicon.from_rows([("incus", "incus bone", "distinct")])
    assert related_suggestions(["incus"], decided) == []
    joined = Lexicon.from_rows([("incus", "incus bone")])
    assert related_suggestions(["incus"], joined) == []


def test_ambiguous_ontology_synonyms_of_the_starter_are_suggestions_not_rows(tmp_path):
    # From the shared review list: Uberon's "acoustic nerve" for the vestibulocochlear nerve
    # would join it to the auditory (cochlear) nerve through older usage.
    with create_project(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="ear", key=[KeyEntry("vestibulocochlear nerve")]))
        found = {(s.name, s.related) for s in project_related_suggestions(project)}
        assert ("vestibulocochlear nerve", "acoustic nerve") in found
        assert not project_lexicon(project).same("vestibulocochlear nerve", "acoustic nerve")
        add_row(project, "vestibulocochlear nerve", "acoustic nerve")
        found = {(s.name, s.related) for s in project_related_suggestions(project)}
        assert ("vestibulocochlear nerve", "acoustic nerve") not in found


def test_a_related_pair_the_starter_keeps_apart_is_not_offered(tmp_path):
    # "colon = large bowel" (shared review list) contradicts the starter's colon | large
    # intestine distinct row, so it is never offered.
    with create_project(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="gut", key=[KeyEntry("colon")]))
        found = {(s.name, s.related) for s in project_related_suggestions(project)}
        assert ("colon", "large bowel") not in found
        assert project_lexicon(project).distinct("colon", "large bowel")
