"""A project keeps its own copy of each source document; a moved source can be relinked."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from labeler.curation import add_item_from_document, reerase_item
from labeler.data import SAMPLE_BOOK, data_file
from labeler.erase.edits import EraseEdits
from labeler.errors import LabelerError, SourceMissing
from labeler.samples.book import layout
from labeler.store import Project

HEART = layout()[0]


@pytest.fixture
def book(tmp_path):
    copy = tmp_path / "incoming" / "Biology-Textbook.pdf"
    copy.parent.mkdir()
    shutil.copyfile(data_file(SAMPLE_BOOK), copy)
    return copy


def test_a_deleted_original_is_never_needed_again(tmp_path, book):
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(project, book, HEART.page, HEART.clip)
        source = project.sources.get(item.source_id)
        assert source.copy_asset and source.path == str(book.resolve())
        assert project.sources.document_path(source) == book.resolve()  # the original first
        book.unlink()
        kept = project.sources.document_path(source)
        assert kept.read_bytes() == data_file(SAMPLE_BOOK).read_bytes()
        again, _ = reerase_item(project, item.id, EraseEdits())
        assert again.question_asset == item.question_asset  # same bytes, same erasure
        # adding a figure from the project's copy keeps the original's recorded path
        add_item_from_document(project, kept, 2, layout()[1].clip)
        assert project.sources.get(item.source_id).path == source.path


def test_without_a_copy_a_moved_source_is_relinked_by_its_bytes(tmp_path, book):
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(project, book, HEART.page, HEART.clip, keep_source_copy=False)
        assert project.sources.get(item.source_id).copy_asset is None
        moved = book.rename(tmp_path / "renamed-after-the-fact.pdf")
        with pytest.raises(SourceMissing, match="relink"):
            reerase_item(project, item.id, EraseEdits())
        other = tmp_path / "other.pdf"
        other.write_bytes(b"%PDF-1.4 not the same bytes")
        with pytest.raises(LabelerError, match="not a source of this project"):
            project.sources.relink(other)
        assert project.sources.relink(moved).path == str(moved.resolve())
        reerase_item(project, item.id, EraseEdits())


def test_the_cli_lists_missing_sources_and_relinks_them(tmp_path, book):
    def labeler(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "labeler", *map(str, args)], capture_output=True, text=True
        )

    folder = tmp_path / "p"
    assert labeler("init", folder, "--no-starter-lexicon").returncode == 0
    added = labeler("add-item", folder, "--pdf", book, "--page", 1, "--no-source-copy")
    assert added.returncode == 0, added.stderr
    moved = book.rename(tmp_path / "moved.pdf")
    listed = labeler("sources", "list", folder)
    assert "MISSING" in listed.stdout and "no copy" in listed.stdout
    relinked = labeler("sources", "relink", folder, moved)
    assert relinked.returncode == 0 and str(moved.resolve()) in relinked.stdout
    assert "found" in labeler("sources", "list", folder).stdout
