"""``labeler scan`` finds the labelled figures of a book; ``labeler add-items`` accepts them."""

from __future__ import annotations

import json
import subprocess
import sys

import pymupdf

from labeler.data import SAMPLE_BOOK, data_file
from labeler.pdf.geometry import overlap_share
from labeler.samples.book import layout
from labeler.scan import read_candidates, scan_document
from labeler.store import Project
from tests.paths import EXTERNAL_FIGURES

BODY = (
    "The skeleton supports the body and protects its organs. Long bones such as the femur "
    "have a shaft and two ends, and the cavity inside holds marrow. "
) * 6


def _labeler(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *map(str, args)], capture_output=True, text=True
    )


def test_every_figure_of_the_sample_book_is_found_where_it_is(tmp_path):
    found = scan_document(data_file(SAMPLE_BOOK))
    placed = layout()
    assert [c.page for c in found] == [f.page for f in placed]
    for candidate, figure in zip(found, placed, strict=True):
        x0, y0, x1, y1 = figure.clip  # the region the book set aside for the figure
        inside = (x0 - 5, y0 - 5, x1 + 5, y1 + 5)
        c = candidate.clip
        assert inside[0] <= c[0] and inside[1] <= c[1] and c[2] <= inside[2] and c[3] <= inside[3]
        assert overlap_share(candidate.clip, figure.clip) > 0.6, figure.spec.subject
        if figure.spec.raster:
            assert (candidate.kind, candidate.labels) == ("raster", None)
        else:
            assert candidate.kind == "vector"
            assert candidate.labels == len(figure.spec.labels), figure.spec.subject
        assert candidate.caption and candidate.caption.startswith(f"Figure {figure.page}")


def test_text_pages_and_unlabelled_drawings_are_not_figures(tmp_path):
    svg = pymupdf.open(EXTERNAL_FIGURES / "bone-cross-section.svg")
    bone = pymupdf.open("pdf", svg.convert_to_pdf())
    doc = pymupdf.open()
    text = doc.new_page()
    text.insert_text((72, 60), "Chapter 6  Bones", fontsize=16)
    text.insert_textbox(pymupdf.Rect(72, 80, 540, 760), BODY * 3, fontsize=10)
    plain = doc.new_page()  # a decorative drawing with no labels
    plain.draw_circle((300, 300), 120, color=(0.2, 0.3, 0.6), fill=(0.8, 0.85, 1.0))
    plain.insert_textbox(pymupdf.Rect(72, 480, 540, 760), BODY, fontsize=10)
    figure = doc.new_page()
    figure.insert_textbox(pymupdf.Rect(72, 50, 540, 130), BODY, fontsize=9)
    target = pymupdf.Rect(40, 150, 40 + bone[0].rect.width * 0.45, 150 + bone[0].rect.height * 0.45)
    figure.show_pdf_page(target, bone, 0)
    figure.insert_text((72, target.y1 + 18), "Figure 6.3  A long bone.", fontsize=9)
    book = tmp_path / "bones.pdf"
    doc.save(book)
    found = scan_document(book)
    assert [c.page for c in found] == [3]
    assert found[0].labels == 8 and found[0].with_leaders == 8
    assert overlap_share(found[0].clip, tuple(target)) > 0.6
    assert scan_document(book, pages=[1, 2]) == []


def test_scan_then_add_items_then_again_adds_nothing_twice(tmp_path):
    out = tmp_path / "candidates.json"
    scanned = _labeler("scan", data_file(SAMPLE_BOOK), "--pages", "1-3", "--out", out, "--quiet")
    assert scanned.returncode == 0, scanned.stderr
    assert "3 labelled figure(s) found" in scanned.stdout
    pdf, candidates = read_candidates(out)
    assert pdf == data_file(SAMPLE_BOOK).resolve() and len(candidates) == 3
    folder = tmp_path / "p"
    assert _labeler("init", folder, "--no-starter-lexicon").returncode == 0
    first = _labeler("add-items", folder, "--from", out, "--only", "1,3")
    assert first.returncode == 0, first.stderr + first.stdout
    assert "2 added, 0 already items, 0 failed" in first.stdout
    again = _labeler("add-items", folder, "--from", out)
    assert "1 added, 2 already items, 0 failed" in again.stdout
    with Project.open(folder) as project:
        items = project.items.list()
        assert sorted(i.page for i in items) == [1, 2, 3]
        assert all(i.notes.startswith("Figure") for i in items)  # the caption, for the curator
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"figures": [{"page": 1}]}))
    refused = _labeler("add-items", folder, "--from", bad)
    assert refused.returncode != 0 and "labeler scan" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert _labeler("scan", data_file(SAMPLE_BOOK), "--pages", "x").returncode == 2
