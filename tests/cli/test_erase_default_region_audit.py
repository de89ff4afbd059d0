"""Without ``--clip`` a figure's running head, page number and body text never enter the key.

Issue #11: "headings, page numbers and body text never enter the key" and "``add-item``
without ``--clip`` uses the proposed figure region". The page is a textbook page: a running
head, a chapter heading, body text above and below the figure, a caption, a page number.
``labeler erase`` and ``labeler add-item`` without ``--clip`` both key the printed labels only.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pymupdf

from labeler.store import Project
from tests.erase.erase_fixtures import LABELS, draw_art, draw_label, draw_leader

BODY = "The cell is the unit of structure and function of every living thing. " * 8
#: the printed labels, one name each (the second lines of a label joined, as printed)
NAMES = sorted(label.name for label in LABELS)


def _textbook_page(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 30), "CHAPTER 3 | THE CELLULAR LEVEL OF ORGANIZATION", fontsize=7)
    page.insert_text((54, 60), "3.1 The Cell Membrane", fontsize=14)
    page.insert_textbox(pymupdf.Rect(54, 70, 558, 130), BODY, fontsize=9)
    figure = pymupdf.open()
    art = figure.new_page(width=600, height=500)
    draw_art(art)
    for label in LABELS:
        draw_leader(art, label.leader)
        draw_label(art, label)
    page.show_pdf_page(pymupdf.Rect(54, 140, 534, 540), figure, 0)
    page.insert_text((54, 560), "Figure 3.2  A generic cell.", fontsize=9)
    page.insert_textbox(pymupdf.Rect(54, 570, 558, 740), BODY, fontsize=9)
    page.insert_text((300, 770), "112", fontsize=9)
    path = tmp_path / "page.pdf"
    doc.save(path)
    return path


def _labeler(*args: object) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "labeler", *map(str, args)]
    return subprocess.run(argv, capture_output=True, text=True, check=True)


def test_erase_without_a_clip_keys_only_the_figures_labels(tmp_path):
    out = tmp_path / "out"
    _labeler("erase", "--pdf", _textbook_page(tmp_path), "--page", 1, "--out", out)
    labels = json.loads((out / "labels.json").read_text())
    assert sorted(label["text"] for label in labels) == NAMES


def test_add_item_without_a_clip_keys_only_the_figures_labels(tmp_path):
    folder = tmp_path / "project"
    _labeler("init", folder, "--no-starter-lexicon")
    _labeler("add-item", folder, "--pdf", _textbook_page(tmp_path), "--page", 1)
    with Project.open(folder) as project:
        (item,) = project.items.list()
        key = project.items.key(item.id)
    printed = sorted(f"{e.name} ({e.note})" if e.note else e.name for e in key)
    assert printed == NAMES  # "Periosteum (membrane covering bone)": the gloss is a note
    assert item.clip[1] >= 140 - 5 and item.clip[3] <= 540 + 5
