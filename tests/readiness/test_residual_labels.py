"""The residual-label check: key text still readable in a question blocks ``ready``.

Real figures from the sample textbook, real erasure, real OCR: a label the curator told
erasure to keep printed (``EraseEdits.keep``) stays readable in the question, and once it is a
key name the item cannot be ready until it is erased or the curator records why it may stay.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.erase.edits import EraseEdits
from labeler.erase.residual import read_question, readable_in
from labeler.readiness import (
    ResidualLabels,
    accept_residual_labels,
    check_residual_labels,
    ready_blockers,
    update_item,
)
from labeler.samples.book import layout
from labeler.store import KeyEntry, Project

BOOK = data_file(SAMPLE_BOOK)
HEART = layout()[0]


def _aorta_box(project: Project, item_id: str) -> tuple[float, float, float, float]:
    entry = next(e for e in project.items.key(item_id) if e.name == "Aorta")
    assert entry.bbox is not None
    return entry.bbox


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p") as p:
        yield p


def test_a_clean_question_is_checked_when_stored_and_may_be_ready(project):
    item = add_item_from_document(project, BOOK, HEART.page, HEART.clip)
    check = project.residual_checks.get(item.id)
    assert check is not None and check.readable == () and check.method == "pdf-text"
    assert check.question == item.question_asset
    assert update_item(project, item.id, status="ready").status == "ready"


def test_a_label_left_printed_blocks_ready_until_accepted_with_a_reason(project):
    first = add_item_from_document(project, BOOK, HEART.page, HEART.clip)
    box = _aorta_box(project, first.id)
    project.items.delete(first.id)
    kept = add_item_from_document(
        project, BOOK, HEART.page, HEART.clip, edits=EraseEdits(keep=(box,))
    )
    names = [e.name for e in project.items.key(kept.id)]
    assert "Aorta" not in names  # kept text is out of the key ...
    project.items.set_key(kept.id, [*project.items.key(kept.id), KeyEntry("Aorta")])
    # ... until the curator adds it: now the question shows a key name
    assert ready_blockers(project, kept.id) == ("Aorta",)
    with pytest.raises(ResidualLabels, match="Aorta") as refused:
        update_item(project, kept.id, status="ready")
    assert "--accept" in str(refused.value)
    assert project.items.get(kept.id).status == "draft"
    with pytest.raises(Exception, match="say why"):
        accept_residual_labels(project, kept.id, "  ")
    check = accept_residual_labels(project, kept.id, "the word is part of the drawing's title")
    assert check.override_why and check.override_by and check.override_at
    assert update_item(project, kept.id, status="ready").status == "ready"


def test_a_new_question_needs_a_new_acceptance(project):
    first = add_item_from_document(project, BOOK, HEART.page, HEART.clip)
    box = _aorta_box(project, first.id)
    key = project.items.key(first.id)
    kept = add_item_from_document(
        project, BOOK, HEART.page, HEART.clip, edits=EraseEdits(keep=(box,)), allow_duplicate=True
    )
    project.items.set_key(kept.id, key)
    accept_residual_labels(project, kept.id, "accepted for this question")
    assert ready_blockers(project, kept.id) == ()
    from labeler.curation import reerase_item

    reerase_item(project, kept.id, EraseEdits(keep=(box,)))  # a new question image
    assert ready_blockers(project, kept.id) == ("Aorta",)


def test_raster_figures_are_read_back_by_ocr_and_the_check_can_see_labels(project):
    scan = next(f for f in layout() if f.spec.raster)  # the scanned plate: labels burned in
    item = add_item_from_document(project, BOOK, scan.page, scan.clip)
    check = project.residual_checks.get(item.id)
    assert check.method == "pdf-text+ocr"
    assert check.readable == (), check.read_text
    # the same reading of the untouched figure finds the printed names: the check can fail
    answer = project.assets.read(item.answer_asset)
    words, _ = read_question(answer, None, ocr=True)
    names = [e.name for e in project.items.key(item.id)]
    assert len(readable_in(names, words)) >= len(names) // 2


def test_readable_in_matches_whole_words_only():
    words = "the left atrium and the aortic arch"
    assert readable_in(["Left atrium", "Aorta", "arch", "A"], words) == ["Left atrium", "arch"]


def test_the_cli_refuses_ready_then_accepts_with_a_reason(project):
    first = add_item_from_document(project, BOOK, HEART.page, HEART.clip)
    box = _aorta_box(project, first.id)
    key = project.items.key(first.id)
    project.items.delete(first.id)
    kept = add_item_from_document(
        project, BOOK, HEART.page, HEART.clip, edits=EraseEdits(keep=(box,))
    )
    project.items.set_key(kept.id, key)
    check_residual_labels(project, kept.id)
    folder = str(project.folder)

    def labeler(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "labeler", *args], capture_output=True, text=True
        )

    refused = labeler("items", "set-status", folder, kept.id, "ready")
    assert refused.returncode != 0 and "Aorta" in refused.stderr
    assert "Traceback" not in refused.stderr
    checked = labeler("items", "check", folder)
    assert checked.returncode == 1 and "Aorta" in checked.stdout
    accepted = labeler("items", "set-status", folder, kept.id, "ready", "--accept", "title text")
    assert accepted.returncode == 0, accepted.stderr
    shown = labeler("items", "show", folder, kept.id)
    assert "accepted by" in shown.stdout and "title text" in shown.stdout


def _scanned_plate(project: Project):
    """The sample book's scanned plate added once as it is: its item and the names OCR reads
    on the untouched figure (the ones the check must find when they stay printed)."""
    scan = next(f for f in layout() if f.spec.raster)
    item = add_item_from_document(project, BOOK, scan.page, scan.clip)
    words, _ = read_question(project.assets.read(item.answer_asset), None, ocr=True)
    key = project.items.key(item.id)
    printed = [e for e in key if e.bbox is not None and readable_in([e.name], words)]
    assert printed, words
    return scan, key, printed[0]


def test_a_raster_label_left_printed_is_read_back_by_ocr(project):
    # erasure disabled for one burned-in label: only OCR of the question can see it
    scan, _, left = _scanned_plate(project)
    assert left.bbox is not None
    kept = add_item_from_document(
        project,
        BOOK,
        scan.page,
        scan.clip,
        edits=EraseEdits(keep=(left.bbox,)),
        allow_duplicate=True,
    )
    assert left.name not in [e.name for e in project.items.key(kept.id)]
    project.items.set_key(kept.id, [*project.items.key(kept.id), KeyEntry(name=left.name)])
    assert ready_blockers(project, kept.id) == (left.name,)


def test_a_key_name_printed_outside_every_erased_box_is_flagged(project):
    # the curator rejects one proposed label (it stays printed, outside every erased box) but
    # names it in the key: the printed word gives the answer away
    scan, key, left = _scanned_plate(project)
    assert left.bbox is not None
    rejected = add_item_from_document(
        project,
        BOOK,
        scan.page,
        scan.clip,
        edits=EraseEdits(removed_boxes=(left.bbox,)),
        allow_duplicate=True,
    )
    check = project.residual_checks.get(rejected.id)
    assert check is not None and check.method == "pdf-text+ocr"
    assert readable_in([left.name], check.read_text) == [left.name]
    project.items.set_key(rejected.id, [KeyEntry(name=e.name) for e in key])
    assert ready_blockers(project, rejected.id) == (left.name,)
