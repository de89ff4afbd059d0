"""Expert gold sets for the scorer (judged by a biologist, not copied from the code)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

NAMES_FILE = Path(__file__).with_name("names.psv")


class GoldPair(NamedTuple):
    """One expert judgement: does ``pred`` name the part ``key`` names?"""

    pred: str
    key: str
    should_match: bool
    category: str


def gold_pairs() -> list[GoldPair]:
    """Every pair of ``names.psv`` (``pred | key | y/n | category``; ``#`` starts a comment)."""
    pairs = []
    for line in NAMES_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pred, key, verdict, category = (field.strip() for field in line.split("|"))
        assert verdict in ("y", "n"), line
        pairs.append(GoldPair(pred, key, verdict == "y", category))
    return pairs
