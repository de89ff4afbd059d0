"""One cell's scoring: the item's key names and markers, its lexicon, its memoised score.

What :func:`labeler.results.load_results` (and so the export) computes per cell, public so
a view that scores lazily (Review's opened item) gets the same number. Scores and marker
scores are memoised per lexicon object; lexicons are built once per distinct set of rows.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from labeler.lexicon import Lexicon
from labeler.scoring import MarkerScore, NameScore, marker_accuracy, score_names
from labeler.store import KeyEntry, Project
from labeler.store.records import alternative_rows

#: A labelled answer as marker accuracy reads it: ``(name, location_hint)`` per label.
Labels = tuple[tuple[str, str | None], ...]


def key_names(entries: Iterable[KeyEntry]) -> tuple[str, ...]:
    """The names of an answer key, in order (marker-only entries have no name)."""
    return tuple(e.name for e in entries if e.name)


def key_markers(entries: Iterable[KeyEntry]) -> dict[str, str]:
    """Marker letter -> key name for the key's named markers (what marker accuracy scores).

    A printed letter whose name the key does not give cannot be judged, so it is
    left out of the denominator.
    """
    found: dict[str, str] = {}
    for e in entries:
        if e.marker and e.name:
            found.setdefault(e.marker, e.name)
    return found


def score_markers(labels: Labels, markers: dict[str, str], lexicon: Lexicon) -> MarkerScore:
    """One cell's marker accuracy (:func:`labeler.scoring.marker_accuracy`), memoised per lexicon.

    Like :func:`score_cell`, Review calls this for the cell it shows, so its
    number is the one the Leaderboard and ``labeler report`` average.
    """
    memo = _MARKERS.get(lexicon)
    if memo is None:
        memo = _MARKERS[lexicon] = {}
    signature = (labels, tuple(sorted(markers.items())))
    found = memo.get(signature)
    if found is None:
        if len(memo) > MAX_MEMO:
            memo.clear()
        found = memo[signature] = marker_accuracy(labels, markers, lexicon)
    return found


def answer_labels(labels: Sequence[Mapping[str, Any]]) -> Labels:
    """``(name, location_hint)`` of each named label of a response, in the model's order."""
    return tuple(
        (str(label.get("name", "")).strip(), label.get("location_hint"))
        for label in labels
        if label.get("name")
    )


def project_lexicon(project: Project, item_id: str | None = None) -> Lexicon:
    """The lexicon that scores ``item_id``: global rows plus that item's additions.

    The additions include its key's alternatives, as ``same`` rows of their names.
    """
    base = _lexicon(tuple(project.lexicon.rows()))
    item_rows = (
        ()
        if item_id is None
        else (*project.lexicon.rows(item_id), *alternative_rows(project.items.key(item_id)))
    )
    return _layered(base, item_rows) if item_rows else base


def score_cell(predicted_names: Sequence[str], key: Sequence[str], lexicon: Lexicon) -> NameScore:
    """One cell's score exactly as :func:`load_results` (and so the export) computes it.

    The ingredients are the response's predicted names, the item's
    :func:`key_names` and its :func:`project_lexicon`; a view that scores cells
    lazily (the review matrix) calls this so its numbers are the published ones.
    Scores are memoised per lexicon object: reopening the matrix rescores only
    what changed, and a lexicon edit gives a new lexicon object (its rows
    changed), so stale scores are never reused. The returned NameScore is
    shared and must not be mutated.
    """
    predicted, names = tuple(predicted_names), tuple(key)
    memo = _SCORES.get(lexicon)
    if memo is None:
        memo = _SCORES[lexicon] = {}
    found = memo.get((predicted, names))
    if found is None:
        if len(memo) > MAX_MEMO:
            memo.clear()
        found = memo[(predicted, names)] = score_names(predicted, names, lexicon)
    return found


class ItemLexicons:
    """The global lexicon and every item's layered one, read from the store once.

    :func:`project_lexicon` reads the store per call; a pass over many items (the
    export, :func:`load_results`) builds one of these instead.
    """

    def __init__(self, project: Project, keys: Mapping[str, Sequence[KeyEntry]]) -> None:
        self.base = _lexicon(tuple(project.lexicon.rows()))
        self._additions = project.lexicon.item_rows()
        self._keys = keys

    def extra(self, item_id: str) -> tuple[tuple[str, str, str], ...]:
        """The item's own rows: its additions and its key's alternatives."""
        return (
            *self._additions.get(item_id, ()),
            *alternative_rows(self._keys.get(item_id, ())),
        )

    def lexicon(self, item_id: str) -> Lexicon:
        """The lexicon that scores ``item_id`` (as :func:`project_lexicon`)."""
        extra = self.extra(item_id)
        return _layered(self.base, extra) if extra else self.base


_SCORES: weakref.WeakKeyDictionary[Lexicon, dict[tuple[Any, ...], NameScore]] = (
    weakref.WeakKeyDictionary()
)
_MARKERS: weakref.WeakKeyDictionary[Lexicon, dict[tuple[Any, ...], MarkerScore]] = (
    weakref.WeakKeyDictionary()
)


MAX_MEMO = 200_000


@functools.lru_cache(maxsize=8)
def _lexicon(global_rows: tuple[tuple[str, str, str], ...]) -> Lexicon:
    """The global lexicon, keyed by its rows: unchanged rows reuse one object and its memos."""
    return Lexicon.from_rows(global_rows)


@functools.lru_cache(maxsize=1024)
def _layered(base: Lexicon, item_rows: tuple[tuple[str, str, str], ...]) -> Lexicon:
    """An item's lexicon, keyed by the base object (hashed by identity) and its own rows."""
    return base.with_rows(item_rows)
