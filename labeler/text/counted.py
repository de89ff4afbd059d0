"""Counts in prose: "1 model", "2 models", "1 entry", "3 entries" — never "1 models"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one (``plural`` when ``-s`` is wrong)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
