"""Fixtures for export tests (builders live in export_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.export.export_fixtures import PAGE, SOURCE_NAME, build_project, make_pdf


@pytest.fixture
def source_pdf(tmp_path) -> Path:
    return make_pdf(tmp_path / SOURCE_NAME, PAGE + 3)


@pytest.fixture
def project(tmp_path, source_pdf):
    with build_project(tmp_path / "proj", source_pdf) as p:
        yield p
