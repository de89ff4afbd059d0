"""The analysis tests read the scoring tests' generated results (defined once, there)."""

from tests.scoring.conftest import generated

__all__ = ["generated"]
