"""Counts read as English: the dataset card and the views never say "1 models"."""

from __future__ import annotations

import pytest

from labeler.text.counted import counted


@pytest.mark.parametrize(
    ("n", "noun", "plural", "text"),
    [
        (1, "model", None, "1 model"),
        (0, "model", None, "0 models"),
        (2, "item", None, "2 items"),
        (1, "entry", "entries", "1 entry"),
        (3, "entry", "entries", "3 entries"),
        (12000, "row", None, "12,000 rows"),
    ],
)
def test_counted(n, noun, plural, text):
    assert counted(n, noun, plural) == text
