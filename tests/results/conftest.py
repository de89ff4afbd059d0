"""The results tests read the export tests' real project (defined once, there)."""

from tests.export.conftest import project, source_pdf

__all__ = ["project", "source_pdf"]
