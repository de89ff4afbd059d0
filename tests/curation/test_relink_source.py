"""Relinking one source: the moved file is accepted, any other file refused, nothing changed."""

from __future__ import annotations

import pymupdf
import pytest

from labeler.curation import relink_source
from labeler.errors import LabelerError
from labeler.store import Project


def write_pdf(path, text: str):
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    doc.save(path)
    doc.close()
    return path


def test_the_moved_file_is_relinked_and_another_edition_is_refused(tmp_path):
    book = write_pdf(tmp_path / "book.pdf", "Chapter 1. The heart")
    other = write_pdf(tmp_path / "other.pdf", "Chapter 1. The lung")
    with Project.create(tmp_path / "p") as project:
        source = project.sources.add(book, kind="pdf", page_count=1, keep_copy=False)
        kept = project.sources.add(other, kind="pdf", page_count=1, keep_copy=False)
        moved = book.rename(tmp_path / "moved-book.pdf")

        # another source's file is not this source, even though the project knows its bytes
        with pytest.raises(LabelerError, match="bytes differ") as refused:
            relink_source(project, source.id, other)
        assert "book.pdf" in str(refused.value)
        assert project.sources.get(source.id).path == str(book.resolve())
        assert project.sources.get(kept.id).path == str(other.resolve())

        with pytest.raises(LabelerError, match="not a file"):
            relink_source(project, source.id, tmp_path / "nowhere.pdf")

        again = relink_source(project, source.id, moved)
        assert again.id == source.id and again.path == str(moved.resolve())
        assert project.sources.document_path(again) == moved.resolve()
