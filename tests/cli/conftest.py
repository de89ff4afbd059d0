"""The command-line tests use the fixtures of the layers they drive (defined once, there)."""

from tests.runs.conftest import server
from tests.scoring.conftest import generated, results_file

__all__ = ["generated", "results_file", "server"]
