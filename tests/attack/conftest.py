"""Fixtures of the attack suite: a tiny real tmpfs for disk-full faults (root only)."""

from __future__ import annotations

import subprocess

import pytest


@pytest.fixture
def tiny_disk(tmp_path):
    """A 3 MB tmpfs mounted under ``tmp_path``; skipped, with the reason, where mount is refused."""
    mount = tmp_path / "disk"
    mount.mkdir()
    out = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {out.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
