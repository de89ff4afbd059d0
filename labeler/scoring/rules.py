"""Which rules score an answer: the dataset card's, or an expert grader's.

``card`` reproduces the published card's scorer exactly, so published data can
be re-scored byte for byte; ``expert`` (the default) reads answers the way a
biology grader does (:mod:`labeler.scoring.expert`) and refuses fuzzy merges
between parts that differ in a numeral, ordinal or side
(:mod:`labeler.scoring.contrast`). The export records the rules' name and
version so a reader knows which numbers they are looking at.
"""

from __future__ import annotations

from typing import Literal

from labeler.errors import LabelerError

Rules = Literal["card", "expert"]
RULES: tuple[Rules, ...] = ("card", "expert")
DEFAULT_RULES: Rules = "expert"

#: Bumped whenever a rule set's results can change for some answer.
SCORING_VERSIONS: dict[str, str] = {"card": "card-1", "expert": "expert-1"}


class UnknownRulesError(LabelerError):
    """A rule set name that is not one of :data:`RULES`."""


def check_rules(rules: str) -> Rules:
    """``rules`` itself when it names a rule set; otherwise an actionable error."""
    if rules not in RULES:
        raise UnknownRulesError(f"unknown scoring rules {rules!r}: use one of {', '.join(RULES)}")
    return rules


def scoring_version(rules: str = DEFAULT_RULES) -> str:
    """The version string an export records for ``rules``."""
    return SCORING_VERSIONS[check_rules(rules)]
