"""A generated results set whose scores are known by construction.

Each item's key is 4 canonical names from the starter lexicon (distinct
groups, so items share no names). An answer names ``k`` of them, each written
as a different surface (synonym, plural, capitals, article) and nothing else,
so its F1 is exactly ``2k / (k + 4)`` — computed here by formula, never by the
scorer under test. The stored ``f1`` is deliberately stale (0) so only a real
rescore gives the right table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from labeler.lexicon import load_starter

#: names answered per item, before a per-item wobble of -1/0/+1 (beta never ran no-image)
CORRECT = {
    "alpha": {"blind": 2, "told": 3, "desc": 3, "no-image": 1},
    "beta": {"blind": 1, "told": 4, "desc": 2},
}
N_ITEMS = 20
KEY_SIZE = 4


@dataclass
class Generated:
    rows: list[dict]
    expected_f1: dict[tuple[str, str, str], float]  # (item, model, condition) -> F1


def _surfaces(canonical: str, synonyms: dict[str, list[str]], i: int) -> str:
    options = [*synonyms.get(canonical, []), canonical.upper(), f"the {canonical}"]
    return options[i % len(options)]


def generate() -> Generated:
    lexicon = load_starter()
    synonyms: dict[str, list[str]] = {}
    for row in lexicon.rows():
        if row.relation == "same":
            synonyms.setdefault(row.canonical, []).append(row.synonym)
    pool = [c for c in synonyms if len(c) > 3]
    chosen: list[str] = []
    for name in pool:  # one name per synonym group and no fuzzy neighbours
        if all(not lexicon.same(name, c) and name[:3] != c[:3] for c in chosen):
            chosen.append(name)
    keys = [chosen[i * KEY_SIZE : (i + 1) * KEY_SIZE] for i in range(N_ITEMS)]
    assert all(len(k) == KEY_SIZE for k in keys), "starter lexicon too small for the fixture"
    rows, expected = [], {}
    for i, key in enumerate(keys):
        item = f"NALANDA-{i + 1}"
        for model, conditions in CORRECT.items():
            for condition, base in conditions.items():
                k = min(KEY_SIZE, max(0, base + i % 3 - 1))
                predicted = [_surfaces(name, synonyms, i + j) for j, name in enumerate(key[:k])]
                if not predicted:
                    predicted = ["no such structure"]
                rows.append(
                    {
                        "item_id": item,
                        "model": model,
                        "condition": condition,
                        "f1": 0.0,
                        "precision": 0.0,
                        "recall": 0.0,
                        "n_pred": len(predicted),
                        "n_key": KEY_SIZE,
                        "predicted_names": predicted,
                        "key_names": key,
                    }
                )
                expected[(item, model, condition)] = 2 * k / (k + KEY_SIZE)
    return Generated(rows, expected)


@pytest.fixture(scope="session")
def generated() -> Generated:
    return generate()


@pytest.fixture
def results_file(tmp_path, generated):
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in generated.rows), encoding="utf-8")
    return path
