"""The parser reads every gold answer the way the person who wrote the gold set did."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from labeler.runs.parse import parse_answer


def _load_gold():
    path = Path(__file__).parent / "gold" / "parse_gold.py"
    spec = importlib.util.spec_from_file_location("parse_gold", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.GOLD


GOLD = _load_gold()


def test_the_gold_set_is_big_and_covers_every_provider_style():
    assert len(GOLD) >= 60
    assert len({g.id for g in GOLD}) == len(GOLD)
    styles = {g.style for g in GOLD}
    assert {"openai", "claude", "gemini", "qwen", "deepseek", "llama", "ollama"} <= styles
    assert {g.status for g in GOLD} == {"ok", "refused", "truncated", "parse_error"}


@pytest.mark.parametrize("gold", GOLD, ids=[g.id for g in GOLD])
def test_parser_agrees_with_the_gold_answer(gold):
    parsed = parse_answer(gold.raw, truncated=gold.truncated)
    assert tuple(label.name for label in parsed.labels) == gold.names, parsed.notes
    assert parsed.status == gold.status, (parsed.error, parsed.notes)
    assert parsed.parse_ok == (gold.status == "ok")
    if gold.markers is not None:
        assert tuple(label.marker for label in parsed.labels) == gold.markers
    else:
        assert all(not label.marker for label in parsed.labels)
    if gold.diagram_is is not None:
        assert parsed.diagram_is == gold.diagram_is
    if gold.status != "ok":
        assert parsed.error
