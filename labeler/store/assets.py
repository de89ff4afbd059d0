"""Content-addressed image storage inside a project folder.

An asset's key is ``<sha256>.<ext>`` of its bytes, so identical renders are
stored once, a key never changes meaning, and a half-written file can never be
mistaken for a finished one (files are written to a temp name, then renamed).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from labeler.atomic import write_bytes
from labeler.errors import ProjectError


class AssetStore:
    """Files under ``<project>/assets/<first two hex digits>/<key>``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def put(self, data: bytes, ext: str = "png") -> str:
        """Store ``data`` (idempotent) and return its key."""
        key = f"{hashlib.sha256(data).hexdigest()}.{ext}"
        path = self.path(key)
        if not path.exists():
            write_bytes(path, data)
        return key

    def path(self, key: str) -> Path:
        """Where the asset with ``key`` lives (it may not exist)."""
        if not key or "/" in key or "\\" in key or key.startswith("."):
            raise ProjectError(f"not an asset key: {key!r}")
        return self.root / key[:2] / key

    def read(self, key: str) -> bytes:
        """The asset's bytes; a clear error if the file went missing."""
        path = self.path(key)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise ProjectError(f"asset {key} is missing from {self.root}") from None
