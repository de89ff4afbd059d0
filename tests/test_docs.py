"""The docs a newcomer reads first stay true to the code."""

import pkgutil
import re

import labeler
from labeler.runs import runner
from tests.paths import ROOT


def test_the_module_map_has_a_row_for_every_module_of_the_core():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(labeler/[^`]+)` \|", text, flags=re.MULTILINE))
    modules = {
        f"labeler/{m.name}/" if m.ispkg else f"labeler/{m.name}.py"
        for m in pkgutil.iter_modules(labeler.__path__)
    }
    assert modules - rows == set(), "add these to docs/ARCHITECTURE.md's module map"
    assert rows - modules == set(), "these rows name modules that no longer exist"


def test_the_glossary_resume_rule_names_the_runners_final_statuses():
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    (rule,) = [line for line in text.splitlines() if line.startswith("| **request hash**")]
    named = set(re.findall(r"`([a-z_-]+)`", rule))
    statuses = {str(s) for s in (*runner.FINAL, *runner.RETRYABLE)}
    assert statuses | {"--retry-failed"} <= named
