"""The slot tests' shared fixture: the sample heart erased once (real erasure)."""

from __future__ import annotations

import pytest

from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.store import NewItem, Project
from tests.slots.slot_support import HEART


@pytest.fixture(scope="session")
def erased(tmp_path_factory):
    """The erased heart's item, key and question image; copy_project copies them."""
    with Project.create(tmp_path_factory.mktemp("erased") / "p") as p:
        item = add_item_from_document(
            p, data_file(SAMPLE_BOOK), HEART.page, HEART.clip, item=NewItem(subject="human heart")
        )
        yield p.items.get(item.id), p.items.key(item.id), p.assets.read(item.question_asset)
