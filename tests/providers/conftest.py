"""The provider tests share the run tests' loopback server and project (defined once, there)."""

from tests.runs.conftest import key_env, project, server

__all__ = ["key_env", "project", "server"]
