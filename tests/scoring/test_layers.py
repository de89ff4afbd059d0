"""Layers point down: text < lexicon < scoring < analysis (issue #10).

The scorer reads the lexicon; the lexicon (and the surface-form layer under it)
never imports the scorer, and rescoring never imports the analysis above it.
The scorer's memo tables live in the scorer, so a lexicon index carries no
attribute the scorer wrote.
"""

import ast
from pathlib import Path

from labeler.lexicon import Lexicon
from labeler.scoring import score_names

PACKAGE = Path(__file__).resolve().parents[2] / "labeler"


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_lexicon_and_text_never_import_the_scorer():
    for path in [PACKAGE / "lexicon.py", *(PACKAGE / "text").glob("*.py")]:
        assert not {m for m in imports(path) if m.startswith("labeler.scoring")}, path


def test_scoring_never_imports_the_analysis():
    for path in (PACKAGE / "scoring").glob("*.py"):
        assert not {m for m in imports(path) if m.startswith("labeler.analysis")}, path


def test_scoring_leaves_the_lexicon_index_as_the_lexicon_built_it():
    lexicon = Lexicon.from_rows([("trachea", "windpipe", "same")])
    before = dict(vars(lexicon.index))
    assert score_names(["windpipe", "B: aorta"], ["trachea", "aorta"], lexicon).f1 == 1.0
    after = vars(lexicon.index)
    assert after.keys() == before.keys()
    assert all(after[k] is before[k] for k in before)
