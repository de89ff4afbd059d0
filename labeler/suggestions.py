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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rapidfuzz.fuzz import ratio

from labeler.scoring.match import score_names
from labeler.scoring.normalize import normalize

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon

ResultRow = tuple[str, str, str, Sequence[str], Sequence[str]]


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

    ``rows`` are ``(item_id, model, condition, predicted_names, key_names)``;
    ``Suggestion.rows`` indexes into them, so the caller knows what to rescore.
    """
    evidence: dict[tuple[str, str], dict] = {}
    for n, (item_id, model, _condition, predicted, key) in enumerate(rows):
        result = score_names(list(predicted), list(key), lexicon)
        if not result.missed_key:
            continue
        for pred in result.unmatched_pred:
            p = normalize(pred)
            best = max(result.missed_key, key=lambda k, p=p: (ratio(p, normalize(k)), k))
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
