"""Fixtures for the run tests: a loopback provider server and a small real project."""

from __future__ import annotations

import pytest

from tests.runs.runs_loopback import API_KEY, LoopbackServer
from tests.runs.runs_support import KEY_ENV, make_project


@pytest.fixture
def key_env(monkeypatch):
    monkeypatch.setenv(KEY_ENV, API_KEY)
    return KEY_ENV


@pytest.fixture
def server():
    with LoopbackServer() as srv:
        yield srv


@pytest.fixture
def project(tmp_path):
    with make_project(tmp_path / "proj") as p:
        yield p
