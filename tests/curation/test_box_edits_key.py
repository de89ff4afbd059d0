"""Rejecting, keeping or adding a box changes the key as well as the image (real erasures)."""

from __future__ import annotations

import dataclasses

import pymupdf
import pytest

from labeler.curation import UNREAD_NAME, key_after_box_edits, key_from_labels
from labeler.erase import erase_figure
from labeler.erase.edits import EraseEdits
from labeler.store import KeyEntry

LABELS = {"Nucleus": (60, 130), "Cell wall": (330, 110), "Vacuole": (60, 200)}
SCALE_BAR = (300, 230)  # "10 µm": printed in the figure, not a part's name
CLIP = (20.0, 80.0, 420.0, 260.0)
BLANK = (380.0, 240.0, 410.0, 255.0)  # paper only


@pytest.fixture(scope="module")
def doc():
    doc = pymupdf.open()
    page = doc.new_page(width=440, height=320)
    shape = page.new_shape()
    shape.draw_oval(pymupdf.Rect(150, 95, 280, 240))
    shape.finish(color=(0, 0.3, 0), fill=(0.8, 0.95, 0.8), width=1.5)
    for x, y in LABELS.values():
        shape.draw_line(pymupdf.Point(x + (35 if x < 200 else -4), y - 3), pymupdf.Point(200, 150))
        shape.finish(color=(0, 0, 0), width=0.8)
    shape.commit()
    for text, at in LABELS.items():
        page.insert_text(at, text, fontsize=9)
    page.insert_text(SCALE_BAR, "10 µm", fontsize=8)
    yield doc
    doc.close()


def harvest(doc, edits: EraseEdits) -> list[KeyEntry]:
    result = erase_figure(doc, page=1, clip=CLIP, dpi=100, edits=edits)
    return key_from_labels(result.labels, {})


def entry(key: list[KeyEntry], name: str) -> KeyEntry:
    return next(e for e in key if e.name == name)


def test_rejecting_drops_the_entry_restoring_brings_it_back_and_fixes_are_kept(doc):
    first = harvest(doc, EraseEdits())
    assert {e.name for e in first} == {*LABELS, "10 µm"}
    # the curator fixes a name by hand: no box edit may undo that
    curated = [
        dataclasses.replace(e, name="Cell nucleus", origin="manual") if e.name == "Nucleus" else e
        for e in first
    ]
    scale = entry(first, "10 µm").bbox
    rejected = EraseEdits(removed_boxes=(scale,))
    after = key_after_box_edits(curated, EraseEdits(), rejected, harvest(doc, rejected))
    assert [e.name for e in after] == [e.name for e in curated if e.name != "10 µm"]

    vacuole = entry(first, "Vacuole").bbox
    kept = rejected.with_edit("keep", vacuole, add=True)
    after = key_after_box_edits(after, rejected, kept, harvest(doc, kept))
    assert sorted(e.name for e in after) == ["Cell nucleus", "Cell wall"]

    restored = kept.cleared("removed_boxes").cleared("keep")
    after = key_after_box_edits(after, kept, restored, harvest(doc, restored))
    assert sorted(e.name for e in after) == ["10 µm", "Cell nucleus", "Cell wall", "Vacuole"]
    assert entry(after, "Vacuole").bbox == vacuole


def test_an_added_box_is_read_from_the_text_under_it_or_asks_for_a_name(doc):
    first = harvest(doc, EraseEdits())
    scale = entry(first, "10 µm").bbox
    rejected = EraseEdits(removed_boxes=(scale,))
    key = key_after_box_edits(first, EraseEdits(), rejected, harvest(doc, rejected))
    assert "10 µm" not in {e.name for e in key}

    # a box drawn generously around the rejected text makes it a label again, read from the PDF
    box = (scale[0] - 4, scale[1] - 3, scale[2] + 4, scale[3] + 3)
    added = rejected.with_edit("extra_boxes", box, add=True)
    key = key_after_box_edits(key, rejected, added, harvest(doc, added))
    assert sorted(e.name for e in key) == sorted([*LABELS, "10 µm"])

    # a box over bare paper: an entry the curator has to name, never an invisible blank
    blank = added.with_edit("extra_boxes", BLANK, add=True)
    key = key_after_box_edits(key, added, blank, harvest(doc, blank))
    unread = [e for e in key if e.name == UNREAD_NAME]
    assert len(unread) == 1 and unread[0].bbox == BLANK

    # dropping the added box drops its entry again
    dropped = blank.with_edit("extra_boxes", BLANK, add=False)
    key = key_after_box_edits(key, blank, dropped, harvest(doc, dropped))
    assert UNREAD_NAME not in {e.name for e in key} and len(key) == len(LABELS) + 1


def test_an_added_box_replaces_the_entries_it_covers():
    left = KeyEntry("left", (10, 20, 40, 30), None, None, "vector")
    ventricle = KeyEntry("ventricle", (10, 32, 60, 42), None, None, "vector")
    other = KeyEntry("Aorta", (100, 20, 140, 30), None, None, "vector")
    box = (8.0, 18.0, 62.0, 44.0)
    joined = KeyEntry("left ventricle", box, None, None, "vector")
    after = key_after_box_edits(
        [left, ventricle, other],
        EraseEdits(),
        EraseEdits(extra_boxes=(box,)),
        [joined, other],
    )
    assert after == [other, joined]
