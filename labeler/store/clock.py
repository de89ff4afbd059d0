"""Timestamps stored in the project: UTC, ISO 8601, second precision."""

from datetime import UTC, datetime


def now() -> str:
    """The current UTC time as ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
