"""The whole store suite runs on both engines: each test once on SQLite, once on PostgreSQL.

Tests that build or inspect the SQLite file itself are marked ``sqlite_only`` and are given
only the SQLite engine (they are not parametrised, so nothing is skipped).
"""

import pytest

from tests.conftest import use_postgres


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        only_sqlite = metafunc.definition.get_closest_marker("sqlite_only")
        engines = ["sqlite"] if only_sqlite else ["sqlite", "postgresql"]
        metafunc.parametrize("backend", engines, indirect=True)


@pytest.fixture(autouse=True)
def backend(request, monkeypatch):
    """The engine this run of the test uses (``Project.create`` makes projects on it)."""
    if request.param == "postgresql":
        use_postgres(monkeypatch, request.getfixturevalue("pg_server"))
    return request.param
