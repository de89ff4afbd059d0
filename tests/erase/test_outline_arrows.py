"""Outline labels touched by arrows and molecules: only confirmed glyphs are removed.

Curved leader arrows with filled arrowheads touching a label's letters, a filled block arrow
after a word and a ball-and-stick molecule beside a label are all small dark fills, like the
glyph paths of an outline label. Erasure removes every glyph of the labels and none of them.
"""

from __future__ import annotations

import pymupdf
import pytest

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from labeler.erase.outlines import glyph_lines
from labeler.erase.residual import readable_in
from labeler.pdf.content import drawings
from tests.erase.erase_fixtures import decode, ink, leftover_label_ink, render
from tests.erase.outline_arrows_figure import CLIP, NAMES, document

DPI = 150


@pytest.fixture(scope="module")
def erased():
    doc = document()
    assert doc[0].get_text().strip() == ""  # outlines only
    return erase_figure(doc, 1, clip=CLIP, dpi=DPI)


def test_every_label_is_one_name(erased):
    assert erased.method == "outline"
    assert sorted(label.text for label in erased.labels) == NAMES


def test_arrows_and_molecules_survive(erased):
    question = decode(erased.question_png)
    art = render(document(text=False), clip=CLIP, dpi=DPI)
    drawn = ink(art, 128)
    assert float((ink(question, 200) & drawn).sum() / drawn.sum()) >= 0.99


def test_no_label_glyph_is_left(erased):
    question = decode(erased.question_png)
    labels_only = render(document(art=False), clip=CLIP, dpi=DPI)
    no_labels = render(document(text=False), clip=CLIP, dpi=DPI)
    assert leftover_label_ink(question, labels_only, no_labels) == 0
    read = " ".join(box.text for box in read_text(question)).lower()
    assert readable_in(NAMES, read) == []
    words = {word.lower() for name in NAMES for word in name.split()}
    assert words.isdisjoint(read.split())


def test_arrows_and_atoms_are_not_clustered_as_glyphs(erased):
    lines = sorted(f.bbox for f in glyph_lines(drawings(document()[0]), CLIP))
    text_only = sorted(f.bbox for f in glyph_lines(drawings(document(art=False)[0]), CLIP))
    assert len(lines) == len(text_only)
    for found, printed in zip(lines, text_only, strict=True):
        assert found == pytest.approx(printed, abs=0.01)
    question = pymupdf.open("pdf", erased.question_pdf)[0]
    fills = [d for d in question.get_drawings() if d["type"] == "f"]
    art_fills = [d for d in document(text=False)[0].get_drawings() if d["type"] == "f"]
    assert len(fills) == len(art_fills)
