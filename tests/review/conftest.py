"""Review tests run on the export tests' project: a real PDF source, keys, lexicon, answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.export.export_fixtures import PAGE, SOURCE_NAME, build_project, make_pdf


@pytest.fixture
def project(tmp_path: Path):
    pdf = make_pdf(tmp_path / SOURCE_NAME, PAGE + 3)
    with build_project(tmp_path / "proj", pdf) as p:
        yield p
