"""Issue #11, speed: building the CLI's parser (every command does) loads no scoring matcher.

``labeler score`` and ``report`` offer ``--rules`` from ``labeler.scoring.rules``; the package
must not pull in the matcher (rapidfuzz, the lexicon) with it, or a cold ``add-item`` pays for
scoring it never does. A fresh interpreter, as a command is.
"""

from __future__ import annotations

import json
import subprocess
import sys

PARSE = """
import json, sys
from labeler.cli import build_parser
from labeler.scoring import DEFAULT_RULES

build_parser()
print(json.dumps({
    "loaded": sorted(m for m in ("labeler.scoring.match", "labeler.lexicon", "rapidfuzz")
                     if m in sys.modules),
    "rules": DEFAULT_RULES,
}))
"""


def test_the_parser_loads_the_rules_but_not_the_matcher():
    out = subprocess.run([sys.executable, "-c", PARSE], capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout)
    assert seen == {"loaded": [], "rules": "expert"}
