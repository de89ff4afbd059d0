"""``labeler erase`` end to end, as a user runs it."""

from __future__ import annotations

import json

import pymupdf
import pytest

from tests.erase.erase_fixtures import LABELS, as_outlines, as_pasted_image, build
from tests.labeler_cli import run_labeler


def test_erase_writes_images_pdf_and_labels(tmp_path):
    pdf = tmp_path / "book.pdf"
    build().save(pdf)
    out = tmp_path / "out"
    done = run_labeler(
        "erase", "--pdf", pdf, "--page", 1, "--clip", "20,20,580,420", "--out", out, "--dpi", 100
    )
    assert done.returncode == 0, done.stderr
    labels = json.loads((out / "labels.json").read_text())
    assert sorted(entry["text"] for entry in labels) == sorted(label.name for label in LABELS)
    assert all(set(entry) == {"text", "bbox", "kind", "anchor", "marker"} for entry in labels)
    nucleus = next(entry for entry in labels if entry["text"] == "Nucleus")
    assert nucleus["anchor"] == [290.0, 215.0] and len(nucleus["bbox"]) == 4
    question = pymupdf.Pixmap(str(out / "question.png"))
    answer = pymupdf.Pixmap(str(out / "answer.png"))
    # 560 × 400 pt at 100 dpi (MuPDF rounds the clip outwards)
    assert (question.width, question.height) == (answer.width, answer.height) == (779, 557)
    assert pymupdf.open(out / "question.pdf")[0].get_text().strip() == ""


def test_erase_reports_bad_input_in_one_line(tmp_path):
    missing = run_labeler(
        "erase", "--pdf", tmp_path / "nope.pdf", "--page", 1, "--out", tmp_path / "o"
    )
    assert missing.returncode == 2
    assert missing.stderr.strip().startswith("labeler: error:") and "no such file" in missing.stderr
    pdf = tmp_path / "one.pdf"
    build().save(pdf)
    wrong_page = run_labeler("erase", "--pdf", pdf, "--page", 3, "--out", tmp_path / "o")
    assert wrong_page.returncode == 2 and "pages 1-1" in wrong_page.stderr
    bad_clip = run_labeler(
        "erase", "--pdf", pdf, "--page", 1, "--clip", "5,5,1", "--out", tmp_path / "o"
    )
    assert bad_clip.returncode == 2 and "X0,Y0,X1,Y1" in bad_clip.stderr
    outside = run_labeler(
        "erase", "--pdf", pdf, "--page", 1, "--clip", "700,700,800,800", "--out", tmp_path / "o"
    )
    assert outside.returncode == 2 and "does not overlap" in outside.stderr
    assert not (tmp_path / "o").exists()  # nothing half-written


UPRIGHT = tuple(label for label in LABELS if not label.rotate)


@pytest.mark.parametrize(("convert", "kind"), [(as_pasted_image, "ocr"), (as_outlines, "outline")])
def test_erase_picks_the_path_by_itself(tmp_path, convert, kind):
    pdf = tmp_path / "figure.pdf"
    convert(build(UPRIGHT)).save(pdf)
    out = tmp_path / "out"
    done = run_labeler("erase", "--pdf", pdf, "--page", 1, "--out", out, "--dpi", 100)
    assert done.returncode == 0, done.stderr
    labels = json.loads((out / "labels.json").read_text())
    assert sorted(entry["text"] for entry in labels) == sorted(label.name for label in UPRIGHT)
    assert {entry["kind"] for entry in labels} == {kind}
    assert all(entry["anchor"] for entry in labels)


def test_result_bytes_outlive_the_source_document():
    from labeler.erase import erase_figure

    doc = build()
    result = erase_figure(doc, 1, dpi=72)
    doc.close()
    assert result.question_png.startswith(b"\x89PNG")
    assert result.answer_png.startswith(b"\x89PNG")
    assert result.question_pdf.startswith(b"%PDF")
