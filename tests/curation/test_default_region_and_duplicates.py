"""``add-item`` without a clip takes the proposed figure; the same figure twice is refused."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.errors import DuplicateItem
from labeler.pdf.geometry import overlap_share
from labeler.samples.book import layout
from labeler.store import Project

BOOK = data_file(SAMPLE_BOOK)


def test_without_a_clip_the_figure_region_is_used_not_the_whole_page(tmp_path):
    heart = layout()[0]  # page 1: a chapter heading, body text, the figure and its caption
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(project, BOOK, heart.page)
        names = [entry.name for entry in project.items.key(item.id)]
    assert overlap_share(item.clip, heart.clip) > 0.8
    assert sorted(names) == sorted(heart.spec.key_names)  # no heading, body text or caption


def test_the_same_figure_twice_names_the_existing_item(tmp_path):
    heart = layout()[0]
    with Project.create(tmp_path / "p") as project:
        first = add_item_from_document(project, BOOK, heart.page, heart.clip)
        nudged = (heart.clip[0] + 2, heart.clip[1] + 1, heart.clip[2] - 2, heart.clip[3])
        with pytest.raises(DuplicateItem, match=first.id) as refused:
            add_item_from_document(project, BOOK, heart.page, nudged)
        assert refused.value.existing_id == first.id
        assert [i.id for i in project.items.list()] == [first.id]  # nothing stored
        again = add_item_from_document(project, BOOK, heart.page, heart.clip, allow_duplicate=True)
        other_page = add_item_from_document(project, BOOK, 2, layout()[1].clip)
        assert len(project.items.list()) == 3
        assert again.id != first.id and other_page.page == 2


def test_the_cli_says_so_without_a_traceback(tmp_path):
    def labeler(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "labeler", *args], capture_output=True, text=True
        )

    folder = str(tmp_path / "p")
    assert labeler("init", folder, "--no-starter-lexicon").returncode == 0
    add = ("add-item", folder, "--pdf", str(BOOK), "--page", "1")
    first = labeler(*add, "--json")
    assert first.returncode == 0, first.stderr
    first_id = json.loads(first.stdout)["id"]
    second = labeler(*add)
    assert second.returncode != 0
    assert first_id in second.stderr and "--allow-duplicate" in second.stderr
    assert "Traceback" not in second.stderr
    assert labeler(*add, "--allow-duplicate").returncode == 0
