"""Slot accuracy: is the name at each number (or printed letter) that slot's key name?

A slot question (``labeler.slots``) asks what is at number 1…n. The answer's mark for a
name is read from the structure the parser found (``{"number": 3, ...}``, stored as the
label's ``marker``), else from the name or location hint (``3: aorta``, ``aorta (3)``, ``at
3``: :func:`labeler.scoring.markers.read_letter`). Names are compared with the same matcher
as name-set F1 (lexicon synonyms, the key's alternatives, plurals, articles). Marker
accuracy for items with printed letters is this computation with letters for numbers.

The first name given for a mark decides it (a model cannot hedge by naming a mark twice);
marks the key does not have are reported as ``extra`` and cost nothing; a slot with no name
counts as wrong in the denominator. Every slot gets a verdict that says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from labeler.scoring.markers import read_letter
from labeler.scoring.match import Match, score_names
from labeler.scoring.rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    from labeler.lexicon import Lexicon

#: One label as slot accuracy reads it: ``(name, location_hint, marker)``.
SlotLabel = tuple[str, str, str]


@dataclass(frozen=True)
class SlotVerdict:
    """One slot: its key name, the name the answer gave there (None: none) and why."""

    mark: str
    key: str
    given: str | None
    correct: bool
    why: str


@dataclass(frozen=True)
class SlotScore:
    """Slot accuracy for one answer: ``accuracy = right slots / n_slots``."""

    accuracy: float
    n_slots: int
    verdicts: tuple[SlotVerdict, ...]
    extra: tuple[str, ...] = ()  # marks the answer named that are not slots
    repeated: tuple[str, ...] = ()  # marks named more than once (the first name counted)

    @property
    def correct(self) -> list[str]:
        """The marks given their key's name, in slot order."""
        return [v.mark for v in self.verdicts if v.correct]

    @property
    def wrong(self) -> dict[str, str]:
        """mark → the wrong name given there."""
        return {v.mark: v.given for v in self.verdicts if not v.correct and v.given is not None}

    @property
    def unanswered(self) -> list[str]:
        """The marks the answer gave no name for."""
        return [v.mark for v in self.verdicts if v.given is None]


def normal_mark(text: str) -> str:
    """A mark as compared: upper case, no brackets or dots, no leading zeros (``(03)`` → 3)."""
    mark = text.strip().strip("()[].:").strip().upper()
    return mark.lstrip("0") or mark if mark.isdigit() else mark


def answered_marks(labels: Sequence[SlotLabel]) -> tuple[dict[str, str], list[str]]:
    """mark → the first name given for it, in the answer's order, and the repeated marks."""
    answered: dict[str, str] = {}
    repeated: list[str] = []
    for name, hint, marker in labels:
        letter, clean = read_letter(name, hint)
        if marker.strip():
            mark = normal_mark(marker)
            clean = clean if letter is not None and normal_mark(letter) == mark else name.strip()
        elif letter is not None:
            mark = normal_mark(letter)
        else:
            continue
        if not clean:
            continue
        if mark in answered:
            if mark not in repeated:
                repeated.append(mark)
        else:
            answered[mark] = clean
    return answered, repeated


def slot_accuracy(
    labels: Sequence[SlotLabel],
    key: Mapping[str, str],
    lexicon: Lexicon | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> SlotScore:
    """Score ``(name, location_hint, marker)`` labels against ``{mark: key name}``."""
    answered, repeated = answered_marks(labels)
    marks = {normal_mark(m): m for m in key}
    verdicts = []
    for norm, mark in marks.items():
        name = key[mark]
        given = answered.get(norm)
        if given is None:
            verdicts.append(SlotVerdict(mark, name, None, False, f"no name given for {mark}"))
            continue
        match = _match(given, name, lexicon, rules)
        if match is not None:
            how = match.how + (f", {match.rule}" if match.rule else "")
            why = f"{given!r} is {name!r} ({how})"
        else:
            elsewhere = [
                m for m, n in key.items() if m != mark and _match(given, n, lexicon, rules)
            ]
            why = f"{given!r} is not {name!r}" + (
                f" (it names slot {elsewhere[0]})" if elsewhere else ""
            )
        verdicts.append(SlotVerdict(mark, name, given, match is not None, why))
    n = len(verdicts)
    right = sum(v.correct for v in verdicts)
    extra = tuple(m for m in answered if m not in marks)
    return SlotScore(right / n if n else 0.0, n, tuple(verdicts), extra, tuple(repeated))


def chance_accuracy(
    labels: Sequence[SlotLabel],
    key: Mapping[str, str],
    lexicon: Lexicon | None = None,
    *,
    rules: Rules = DEFAULT_RULES,
) -> float:
    """The expected slot accuracy of the same names placed on the marks at random.

    The names the answer gave the key's marks, shuffled over the n marks: a name lands on
    a given slot with probability 1/n, so the expectation is the number of (name, slot)
    pairs that match, over n². What an answer that knows the vocabulary but not the
    figure scores; the offline baseline's ``slots-no-image`` is compared with it.
    """
    n = len(key)
    if not n:
        return 0.0
    answered, _ = answered_marks(labels)
    given = [answered[m] for m in (normal_mark(k) for k in key) if m in answered]
    hits = sum(1 for g in given for name in key.values() if _match(g, name, lexicon, rules))
    return hits / (n * n)


def _match(given: str, name: str, lexicon: Lexicon | None, rules: Rules) -> Match | None:
    matches = score_names([given], [name], lexicon, rules=rules).matches
    return matches[0] if matches else None
