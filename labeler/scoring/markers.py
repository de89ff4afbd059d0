"""Marker accuracy: was the right name attached to the right letter?

Some items print letters (A, B, C…) on the figure instead of leader lines.
Name-set F1 ignores position; marker accuracy asks the harder question. Models
write the letter in many places, so it is read from the name first
(``B: aorta``, ``B. aorta``, ``(B) aorta``, ``aorta (B)``) and otherwise from
the location hint (``at B``, ``label B``, ``marker B``, or just ``B``). Names
are then compared with the same rules as name-set F1, lexicon included.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from labeler.scoring.rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon

_LETTER = r"(?P<letter>[A-Za-z]\d?|\d{1,2})"
_NAME_PATTERNS = (
    re.compile(rf"^\s*\(?{_LETTER}\)\s*[:.\-–]?\s*(?P<name>.+)$"),  # (B) aorta, B) aorta
    re.compile(rf"^\s*{_LETTER}\s*[:.\-–=]\s*(?P<name>.+)$"),  # B: aorta, B. aorta, B - aorta
    re.compile(rf"^(?P<name>.+?)\s*[\(\[]{_LETTER}[\)\]]\s*$"),  # aorta (B)
)
_HINT_PATTERNS = (
    re.compile(
        rf"\b(?:at|label(?:led)?|marker|letter|point|arrow|structure|part)\s+{_LETTER}\b", re.I
    ),
    re.compile(rf"^\s*\(?{_LETTER}\)?\s*$"),
)


@dataclass(frozen=True)
class MarkerScore:
    """Marker accuracy for one answer: ``accuracy = len(correct) / n_markers``."""

    accuracy: float
    n_markers: int
    correct: list[str] = field(default_factory=list)
    wrong: dict[str, str] = field(default_factory=dict)
    unanswered: list[str] = field(default_factory=list)


def read_letter(name: str, location_hint: str | None = None) -> tuple[str | None, str]:
    """``(letter or None, name without the letter)`` for one predicted label."""
    for pattern in _NAME_PATTERNS:
        found = pattern.match(name)
        if found:
            return found.group("letter").upper(), found.group("name").strip()
    for pattern in _HINT_PATTERNS:
        found = pattern.search(location_hint or "")
        if found:
            return found.group("letter").upper(), name.strip()
    return None, name.strip()


def marker_accuracy(
    labels: Sequence[tuple[str, str | None]],
    markers: Mapping[str, str],
    lexicon: Lexicon | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> MarkerScore:
    """Score ``(name, location_hint)`` labels against ``{letter: key name}``.

    The same computation as slot accuracy (:func:`labeler.scoring.slots.slot_accuracy`),
    the printed letters being the slots: the first label that carries a letter decides that
    letter (a model cannot hedge by attaching several names to one letter). A letter no
    label names counts as unanswered; every letter counts in the denominator.
    """
    from labeler.scoring.slots import slot_accuracy  # slots reads letters with read_letter

    score = slot_accuracy([(n, h or "", "") for n, h in labels], markers, lexicon, rules=rules)
    return MarkerScore(score.accuracy, score.n_slots, score.correct, score.wrong, score.unanswered)
