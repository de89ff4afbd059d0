"""Slot questions on real figures: erased by the real pipeline, numbered, read back by OCR.

The sample textbook's figures are erased (vector text and a scanned plate), their slot
images rendered, and then checked as a curator would: every number legible (OCR reads it
back from the neighbourhood of its box), inside its erased box, no key name readable
anywhere in the image, and nothing changed outside the boxes (the leader lines are intact).
"""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from PIL import Image

from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.erase.ocr import read_text
from labeler.erase.residual import readable_in
from labeler.errors import LabelerError
from labeler.samples.book import layout
from labeler.slots import reading_order, set_slot_order, slot_order, slot_question
from labeler.store import Project
from tests.slots.slot_support import BY_POSITION

BOOK = data_file(SAMPLE_BOOK)
FIGURES = {f.spec.title: f for f in layout()}
HEART = FIGURES["The human heart in frontal section"]
FLOWER = FIGURES["Parts of a flower (scanned plate)"]  # raster: erased by OCR + mask
CELL = FIGURES["An animal cell with lettered parts"]  # printed markers A-D


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    with Project.create(tmp_path_factory.mktemp("slots") / "p") as p:
        for fig in (HEART, FLOWER, CELL):
            add_item_from_document(p, BOOK, fig.page, fig.clip)
        yield p


def _item(project: Project, fig) -> str:
    return next(i.id for i in project.items.list() if i.page == fig.page)


def _rgb(png: bytes) -> np.ndarray:
    return np.array(Image.open(io.BytesIO(png)).convert("RGB"))


@pytest.mark.slow
@pytest.mark.parametrize("fig", [HEART, FLOWER], ids=["vector", "raster"])
def test_every_number_is_legible_inside_its_erased_box(project, fig):
    item_id = _item(project, fig)
    question = slot_question(project, item_id)
    assert question is not None and not question.printed_markers
    assert question.marks == tuple(str(n) for n in range(1, len(fig.spec.labels) + 1))
    rgb = _rgb(question.png)
    for slot in question.slots:
        assert slot.box is not None
        x0, y0, x1, y1 = slot.box
        # the box and a margin around it, so a number spilling out would be cut and misread
        m = 12
        crop = rgb[max(0, y0 - m) : y1 + m, max(0, x0 - m) : x1 + m]
        read = [b for b in read_text(np.ascontiguousarray(crop), min_confidence=0.5) if b.text]
        assert [b.text for b in read] == [slot.mark], (slot, read)
        # OCR's hull is padded: where it read the number, its centre, is inside the box
        bx0, by0, bx1, by1 = read[0].bbox
        cx, cy = max(0, x0 - m) + (bx0 + bx1) / 2, max(0, y0 - m) + (by0 + by1) / 2
        assert x0 <= cx <= x1 and y0 <= cy <= y1


@pytest.mark.slow
@pytest.mark.parametrize("fig", [HEART, FLOWER], ids=["vector", "raster"])
def test_no_key_text_is_readable_in_the_slot_image(project, fig):
    item_id = _item(project, fig)
    question = slot_question(project, item_id)
    assert question is not None
    words = " ".join(b.text for b in read_text(_rgb(question.png), min_confidence=0.5))
    names = [e.name for e in project.items.key(item_id)]
    assert readable_in(names, words) == []


@pytest.mark.parametrize("fig", [HEART, FLOWER], ids=["vector", "raster"])
def test_nothing_outside_the_boxes_changes_so_leader_lines_stay(project, fig):
    item_id = _item(project, fig)
    question = slot_question(project, item_id)
    assert question is not None
    item = project.items.get(item_id)
    before = _rgb(project.assets.read(item.question_asset))
    after = _rgb(question.png)
    assert before.shape == after.shape
    outside = np.ones(before.shape[:2], dtype=bool)
    for slot in question.slots:
        x0, y0, x1, y1 = slot.box
        outside[y0:y1, x0:x1] = False
    assert np.array_equal(before[outside], after[outside])
    # the leader lines are there to keep: dark pixels outside the boxes, in both images
    dark = (before.min(axis=2) < 100) & outside
    assert dark.sum() > 500
    # and every box got its number: some dark pixels inside, where erasure left white
    for slot in question.slots:
        x0, y0, x1, y1 = slot.box
        assert (after[y0:y1, x0:x1].min(axis=2) < 100).sum() > 20


def test_numbers_follow_reading_order_rows_then_left_to_right(project):
    item_id = _item(project, HEART)
    question = slot_question(project, item_id)
    assert question is not None
    # the heart's labels as printed, read off the figure (the right ventricle's is higher)
    assert [s.name for s in question.slots] == BY_POSITION


def test_printed_markers_are_the_slots_and_the_image_is_asked_as_it_is(project):
    item_id = _item(project, CELL)
    entries = project.items.key(item_id)
    assert slot_question(project, item_id) is None  # letters without names: nothing to score
    named = [dataclasses.replace(e, name=CELL.spec.marker_names[e.marker]) for e in entries]
    project.items.set_key(item_id, named)
    question = slot_question(project, item_id)
    assert question is not None and question.printed_markers
    assert question.marks == ("A", "B", "C", "D")
    assert question.key() == CELL.spec.marker_names
    assert question.png == project.assets.read(project.items.get(item_id).question_asset)


def test_a_curator_reorders_drops_and_undoes(project):
    item_id = _item(project, HEART)
    entries = project.items.key(item_id)
    default = reading_order(entries)
    assert slot_order(project, item_id) == default
    reordered = [default[2], default[0], default[1], *default[4:]]  # slot 4 dropped
    previous = set_slot_order(project, item_id, reordered)
    assert previous == default
    question = slot_question(project, item_id)
    assert question is not None
    assert [s.position for s in question.slots] == reordered
    assert question.marks == ("1", "2", "3", "4", "5")
    assert set_slot_order(project, item_id, previous) == reordered  # undo
    assert slot_order(project, item_id) == default
    with pytest.raises(LabelerError, match="numbered once"):
        set_slot_order(project, item_id, [default[0], default[0]])
    with pytest.raises(LabelerError, match="cannot be slots"):
        set_slot_order(project, item_id, [99])


def test_an_order_made_for_another_key_falls_back_to_reading_order(project):
    item_id = _item(project, FLOWER)
    entries = project.items.key(item_id)
    default = reading_order(entries)
    set_slot_order(project, item_id, list(reversed(default)))
    assert slot_order(project, item_id) == list(reversed(default))
    renamed = [dataclasses.replace(entries[0], name="Petal (renamed)"), *entries[1:]]
    project.items.set_key(item_id, renamed)
    assert slot_order(project, item_id) == list(reversed(default))  # a rename keeps it
    x0, y0, x1, y1 = entries[0].bbox
    moved = [dataclasses.replace(renamed[0], bbox=(x0, y0 + 1, x1, y1 + 1)), *renamed[1:]]
    project.items.set_key(item_id, moved)
    assert slot_order(project, item_id) == reading_order(moved)
    set_slot_order(project, item_id, None)
    project.items.set_key(item_id, entries)
