"""An item's terms, layered over the global index, are exactly the whole layered lexicon's.

items.jsonl lists, per item, synonyms, distinct names and the lexicon rows that bear on it.
:meth:`LexiconTerms.item` works them out from the item's own rows over the global lexicon
indexed once; these tests hold every answer to a :class:`LexiconTerms` of the item's whole
layered lexicon (``Lexicon.with_rows``, what scoring uses), on random lexicons with plurals,
spellings, joins, new names and ``distinct`` rows, and on a real export.
"""

import json
import random

import pytest

from labeler.errors import ConfigError
from labeler.export.exporter import export_project
from labeler.export.terms import LexiconTerms
from labeler.lexicon import Lexicon
from labeler.store import KeyEntry, NewItem, Project
from tests.results.test_score_cache import record

#: Names that share singular readings, spellings and normal forms with one another.
WORDS = [
    "valve", "valves", "Valve", "the valve", "mitral valve", "mitral valves", "bicuspid valve",
    "nucleus", "nuclei", "nucleolus", "nucleoli", "aorta", "aortae", "great artery",
    "pulmonary trunk", "trunk", "femur", "thigh bone", "thigh bones", "loop of Henle",
    "Henle's loop", "cortex", "cortices", "atrium", "atria", "new part", "new parts",
]  # fmt: skip


def _rows(rng: random.Random, n: int, distinct: float) -> list[tuple[str, str, str]]:
    return [
        (*rng.sample(WORDS, 2), "distinct" if rng.random() < distinct else "same") for _ in range(n)
    ]


def _global(rng: random.Random) -> Lexicon:
    while True:
        try:
            return Lexicon.from_rows(_rows(rng, rng.randint(0, 10), 0.3))
        except ConfigError:  # a distinct row across a joined group: draw again
            continue


@pytest.mark.parametrize("seed", range(300))
def test_layered_terms_are_the_whole_layered_lexicons(seed):
    rng = random.Random(seed)
    base = _global(rng)
    terms = LexiconTerms(base)
    own = _rows(rng, rng.randint(1, 5), 0.25)
    try:
        whole = LexiconTerms(base.with_rows(own))
    except ConfigError as refused:
        with pytest.raises(ConfigError, match="distinct") as raised:
            terms.item(own)
        assert str(raised.value) == str(refused)
        return
    layered = terms.item(own)
    for name in [*WORDS, "unknown part"]:
        assert layered.synonyms(name) == whole.synonyms(name), name
        assert layered.distinct(name) == whole.distinct(name), name
    for _ in range(20):
        names = rng.sample(WORDS, rng.randint(0, 6))
        assert layered.relevant_rows(names) == whole.relevant_rows(names), names


def test_a_row_only_one_item_has_gives_that_item_exactly_its_terms(tmp_path):
    """Two items, one answered with a name only its own row knows; the other item keeps
    the global terms, and each row lists what its whole layered lexicon gives."""
    with Project.create(tmp_path / "p") as project:
        project.lexicon.add_many(
            [
                ("mitral valve", "bicuspid valve", "same"),
                ("aorta", "great artery", "same"),
                ("great artery", "pulmonary trunk", "distinct"),
            ]
        )
        heart = project.items.add(NewItem(item_id="heart", key=[KeyEntry("Mitral valve")]))
        other = project.items.add(NewItem(item_id="other", key=[KeyEntry("Mitral valve")]))
        # only heart's: joins a new name to the valve, and sets the aorta apart from it
        project.lexicon.add("bicuspid valve", "valva atrioventricularis", item_id=heart.id)
        project.lexicon.add("mitral valves", "aorta", "distinct", item_id=heart.id)
        record(project, heart.id, "lab/a", "told", [("valva atrioventricularis", None)])
        record(project, other.id, "lab/a", "told", [("aorta", None)])
        export_project(project, tmp_path / "out", private=True)
    by_item = {
        internal["internal_id"]: row
        for internal, row in zip(
            _lines(tmp_path / "out" / "provenance.jsonl"),
            _lines(tmp_path / "out" / "items.jsonl"),
            strict=True,
        )
    }
    assert by_item[heart.id]["synonyms"] == {
        "Mitral valve": ["bicuspid valve", "mitral valves", "valva atrioventricularis"]
    }
    assert by_item[heart.id]["distinct"] == {"Mitral valve": ["aorta", "great artery"]}
    assert by_item[heart.id]["lexicon"] == [
        ["aorta", "great artery", "same"],
        ["bicuspid valve", "valva atrioventricularis", "same"],
        ["great artery", "pulmonary trunk", "distinct"],
        ["mitral valve", "bicuspid valve", "same"],
        ["mitral valves", "aorta", "distinct"],
    ]
    assert by_item[other.id]["synonyms"] == {"Mitral valve": ["bicuspid valve"]}
    assert by_item[other.id]["distinct"] == {"Mitral valve": []}
    assert by_item[other.id]["lexicon"] == [
        ["aorta", "great artery", "same"],
        ["great artery", "pulmonary trunk", "distinct"],
        ["mitral valve", "bicuspid valve", "same"],
    ]


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
