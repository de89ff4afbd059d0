"""Shared test set-up: Qt runs offscreen (no display on CI or developer machines).

``LABELER_TEST_DB=postgresql`` runs the suite's projects on PostgreSQL: every
``Project.create`` without a ``db_url`` gets a fresh database on a server the session starts
itself (``tests/pgserver.py``); tests marked ``sqlite_only`` stay on SQLite.
"""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(scope="session")
def pg_server():
    """One throw-away PostgreSQL server for the session."""
    from tests import pgserver

    server = pgserver.start()
    yield server
    server.stop()


def use_postgres(monkeypatch, server) -> None:
    """Make every ``Project.create`` without ``db_url`` make a PostgreSQL project."""
    from labeler.store.project import Project

    create = Project.create.__func__

    def create_on_postgres(cls, folder, name=None, id_prefix="ITEM", db_url=None):
        return create(cls, folder, name, id_prefix, db_url or server.database())

    monkeypatch.setattr(Project, "create", classmethod(create_on_postgres))


@pytest.fixture(autouse=True)
def _test_database(request, monkeypatch):
    if os.environ.get("LABELER_TEST_DB") == "postgresql" and not request.node.get_closest_marker(
        "sqlite_only"
    ):
        use_postgres(monkeypatch, request.getfixturevalue("pg_server"))
