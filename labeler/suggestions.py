"""Lexicon suggestions from stored predictions, for one-click promotion.

The scorer is only as good as its lexicon, and the lexicon grows from what
models actually write. After scoring, every unmatched predicted name is paired
with the most similar key name the same answer missed. A pair is suggested when

* it *nearly* matches — similarity ≥ ``near`` but rejected by the fuzzy guards
  (``oesophagus``/``esophagus`` fails the first-3 guard; short names fail the
  7-character guard), or
* it is *frequent* — several models wrote the same unmatched name for the item.

Suggestions are ranked by evidence (models, answers, items, similarity) so the
curator sees the pairs that move the most scores first. Promoting one is not
done here: the GUI writes the ``same``/``distinct`` row through the project's
lexicon table (``ui.lexicon.commands.promote``, undoable), and every view
rescores from the store. Input is plain data so the store, the GUI and tests
can all call it.

A second, separate kind: *related* ontology synonyms (:func:`related_suggestions`). The
ontologies list synonyms that are not exact (or that two terms share); they are often what a
model writes, but joining them automatically would merge different parts. They ship in
``labeler/data/lexicon/related.csv`` and are only ever offered, for a key name of the project.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from rapidfuzz.fuzz import ratio

from labeler.scoring.match import score_names
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon
    from labeler.scoring import NameScore
    from labeler.store import Project

ResultRow = tuple[str, str, str, Sequence[str], Sequence[str]]
RELATED_SYNONYMS = "lexicon/related.csv"


@dataclass(frozen=True)
class Suggestion:
    """A candidate lexicon row ``key = pred`` with the evidence behind it."""

    pred: str
    key: str
    similarity: float
    n_models: int
    n_answers: int
    n_items: int
    near: bool
    models: tuple[str, ...] = field(default=())
    items: tuple[str, ...] = field(default=())
    rows: tuple[int, ...] = field(default=())


def suggest(
    rows: Iterable[ResultRow],
    lexicon: Lexicon | None = None,
    near: float = 0.6,
    min_models: int = 2,
) -> list[Suggestion]:
    """Rank unmatched predicted names against missed key names (see module docstring).

    ``rows`` are ``(item_id, model, condition, predicted_names, key_names)``,
    all scored with the one ``lexicon``; ``Suggestion.rows`` indexes into them,
    so the caller knows what to rescore.
    """
    scored = (
        (item_id, model, score_names(list(predicted), list(key), lexicon), lexicon)
        for item_id, model, _condition, predicted, key in rows
    )
    return _rank(scored, near, min_models)


def project_suggestions(
    project: Project, near: float = 0.6, min_models: int = 2
) -> list[Suggestion]:
    """Suggestions from the project's current answers, each judged by its item's own lexicon.

    The cells and their scores are :func:`labeler.results.counted_results`' (the
    published numbers, not a second scoring); stale or unanswered cells do not
    count. A pair the curator already accepted for one item (a per-item lexicon
    row, :func:`labeler.results.project_lexicon`) is matched there and so is
    not offered again for that item. ``Suggestion.rows`` indexes the counted
    cells in ``counted_results`` order.
    """
    from labeler.results import counted_results, project_lexicon

    cells = counted_results(project)
    lexicons = {i: project_lexicon(project, i) for i in {c.item_id for c in cells}}
    scored = ((c.item_id, c.model, c.score, lexicons[c.item_id]) for c in cells)
    return _rank(scored, near, min_models)


def _rank(
    scored: Iterable[tuple[str, str, NameScore, Lexicon | None]], near: float, min_models: int
) -> list[Suggestion]:
    """Suggestions from ``(item_id, model, score, lexicon)`` of each answer, best first."""
    evidence: dict[tuple[str, str], dict] = {}
    for n, (item_id, model, result, lexicon) in enumerate(scored):
        if not result.missed_key:
            continue
        for pred in result.unmatched_pred:
            p = normalize(pred)

            def closeness(k: str, p: str = p) -> tuple[float, str]:
                return (ratio(p, normalize(k)), k)

            best = max(result.missed_key, key=closeness)
            if lexicon is not None and lexicon.distinct(pred, best):
                continue
            slot = evidence.setdefault(
                (p, normalize(best)),
                {"pred": pred, "key": best, "models": set(), "items": set(), "rows": []},
            )
            slot["models"].add(model)
            slot["items"].add(item_id)
            slot["rows"].append(n)
    out = []
    for (p, k), slot in evidence.items():
        similarity = ratio(p, k) / 100
        if similarity < near and len(slot["models"]) < min_models:
            continue
        out.append(
            Suggestion(
                pred=slot["pred"],
                key=slot["key"],
                similarity=round(similarity, 3),
                n_models=len(slot["models"]),
                n_answers=len(slot["rows"]),
                n_items=len(slot["items"]),
                near=similarity >= near,
                models=tuple(sorted(slot["models"])),
                items=tuple(sorted(slot["items"])),
                rows=tuple(slot["rows"]),
            )
        )
    out.sort(key=lambda s: (-s.n_models, -s.n_answers, -s.n_items, -s.similarity, s.key, s.pred))
    return out


@dataclass(frozen=True)
class RelatedSynonym:
    """An ontology synonym related to a key name: a candidate row ``name = related``."""

    name: str
    related: str
    source: str
    note: str


def related_suggestions(
    names: Iterable[str], lexicon: Lexicon | None = None
) -> list[RelatedSynonym]:
    """Related ontology synonyms of ``names`` that ``lexicon`` has not already decided.

    A pair is left out when the lexicon already puts the two names in one group or keeps
    them apart with a ``distinct`` row. Ordered by key name, then related name.
    """
    wanted = {_reading(n): n for n in names}
    out: dict[tuple[str, str], RelatedSynonym] = {}
    for a, b, source, note in _related_rows():
        for mine, other in ((a, b), (b, a)):
            name = wanted.get(_reading(mine))
            if name is None or _reading(other) == _reading(name):
                continue
            if lexicon is not None and (lexicon.same(name, other) or lexicon.distinct(name, other)):
                continue
            out.setdefault((name, normalize(other)), RelatedSynonym(name, other, source, note))
    return sorted(out.values(), key=lambda s: (normalize(s.name), normalize(s.related)))


def project_related_suggestions(project: Project) -> list[RelatedSynonym]:
    """:func:`related_suggestions` for every key name of the project, against its lexicon."""
    from labeler.results import project_lexicon

    names = {e.name for entries in project.items.keys().values() for e in entries}
    return related_suggestions(sorted(names), project_lexicon(project))


def _reading(name: str) -> str:
    return min(name_forms(normalize(name)), default="")


@cache
def _related_rows() -> tuple[tuple[str, str, str, str], ...]:
    from labeler.data import data_file

    with data_file(RELATED_SYNONYMS).open(encoding="utf-8", newline="") as f:
        return tuple(
            (r["canonical"], r["synonym"], r["source"], r["note"]) for r in csv.DictReader(f)
        )
