"""The export's files, byte for byte, against the files the in-memory exporter wrote.

``golden_full/`` holds what ``export_project`` wrote for :func:`build_full`'s project before
the rows were streamed to the staging folder (issue #17): overrides, a second curator's key,
slot answers with ``--include-slots``, a ``--private`` export, and a plain one. Streaming,
vectorised validation and the single-pass card must not change one byte of any of them.
"""

from __future__ import annotations

import pytest

from labeler.export.exporter import check_export, export_project
from tests.export.full_export import GOLDEN, build_full, comparable


def _golden(kind: str) -> dict[str, bytes]:
    folder = GOLDEN / kind
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize(
    ("kind", "options"),
    [("slots-private", {"private": True, "include_slots": True}), ("plain", {})],
)
def test_every_file_is_byte_identical_to_the_in_memory_export(tmp_path, source_pdf, kind, options):
    with build_full(tmp_path / "proj", source_pdf) as project:
        checked = check_export(project, **options)
        report = export_project(project, tmp_path / "out", **options)
    written = comparable(tmp_path / "out", tmp_path)
    expected = _golden(kind)
    assert sorted(written) == sorted(expected)
    for name, data in expected.items():
        assert written[name] == data, name
    assert checked.files == report.files  # the check counts what the export then writes
    assert report.files["results.jsonl"] == expected["results.jsonl"].count(b"\n")
    assert report.files["README.md"] == len(expected["README.md"])
