"""items.jsonl reads the lexicon once per export, and an item's own rows still bear fully.

An item with its own rows gets its synonyms, distinct names and ``lexicon`` rows from its
rows layered over the global lexicon indexed once (``LexiconTerms.item``); they must be
exactly those the whole layered lexicon gives, including groups an item row joins and
groups one ``distinct`` row away.
"""

from labeler.export.ids import preview_public_ids
from labeler.export.items import item_rows
from labeler.export.terms import LexiconTerms
from labeler.results import cell_columns, project_lexicon
from labeler.store import KeyEntry, NewItem, Project
from tests.results.test_score_cache import record


def test_an_items_own_rows_give_the_rows_the_whole_lexicon_gives(tmp_path):
    with Project.create(tmp_path / "p") as project:
        project.lexicon.add_many(
            [
                ("mitral valve", "bicuspid valve", "same"),
                ("left AV valve", "valvula mitralis", "same"),  # joined only by the item row
                ("aorta", "great artery", "same"),
                ("great artery", "pulmonary trunk", "distinct"),
                ("pulmonary trunk", "truncus pulmonalis", "same"),  # one distinct row away
                ("femur", "thigh bone", "same"),  # reached by nothing
            ]
        )
        item = project.items.add(
            NewItem(
                item_id="heart",
                key=[KeyEntry("Mitral valve", alternatives=("bicuspid",)), KeyEntry("Aorta")],
            )
        )
        project.lexicon.add("bicuspid valve", "left AV valve", item_id=item.id)
        record(project, item.id, "lab/a", "told", [("aorta", None)])
        cells = cell_columns(project)
        counted = [k for k, n in enumerate(cells.counts) if n]
        public = preview_public_ids(project, [item.id])
        (row,) = item_rows(project, [item], cells, counted, public, cells.flags())
        whole = LexiconTerms(project_lexicon(project, item.id))
        names = ["Mitral valve", "Aorta"]
        assert row["synonyms"] == {n: whole.synonyms(n) for n in names}
        assert row["distinct"] == {n: whole.distinct(n) for n in names}
        assert row["lexicon"] == whole.relevant_rows([*names, "aorta"])
        assert "valvula mitralis" in row["synonyms"]["Mitral valve"]
        assert row["distinct"]["Aorta"] == ["pulmonary trunk", "truncus pulmonalis"]
        assert not any("femur" in r for r in row["lexicon"])
