"""Opening documents: every bad input gives a clear DocumentError; SVG and images open."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from labeler.cli import main
from labeler.errors import DocumentError, PasswordRequired
from labeler.pdf.content import drawings, image_boxes, text_spans
from labeler.pdf.document import get_page, open_document, render_page


def _save(doc: pymupdf.Document, path, **kwargs):
    doc.save(path, **kwargs)
    return path


def _one_page(text="Hello"):
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=100)
    page.insert_text((20, 50), text, fontsize=12)
    return doc


def _locked(path):
    """A one-page PDF (AES-256) that opens with the user password ``sesame``."""
    return _save(
        _one_page(),
        path,
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        user_pw="sesame",
        owner_pw="owner",
    )


def test_missing_file(tmp_path):
    with pytest.raises(DocumentError, match="no such file"):
        open_document(tmp_path / "nope.pdf")


def test_folder_is_not_a_document(tmp_path):
    with pytest.raises(DocumentError, match="folder"):
        open_document(tmp_path)


def test_not_a_pdf(tmp_path):
    path = tmp_path / "notes.pdf"
    path.write_text("just some text, not a PDF")
    with pytest.raises(DocumentError, match="not a PDF"):
        open_document(path)


def test_corrupt_pdf(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 4)
    with pytest.raises(DocumentError, match=r"damaged|no pages"):
        open_document(path)


def test_zero_pages(tmp_path):
    path = tmp_path / "empty.pdf"
    body = (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    path.write_bytes(body)
    with pytest.raises(DocumentError, match="no pages"):
        open_document(path)


def test_encrypted_needs_the_right_password(tmp_path):
    path = _locked(tmp_path / "locked.pdf")
    with pytest.raises(PasswordRequired, match=r"encrypted.*password") as missing:
        open_document(path)
    with pytest.raises(PasswordRequired, match="wrong password") as wrong:
        open_document(path, password="guess")
    # a DocumentError like any other, worded for every front end (no CLI flag)
    assert isinstance(missing.value, DocumentError)
    assert "--password" not in str(missing.value) + str(wrong.value)
    doc = open_document(path, password="sesame")
    assert "Hello" in doc[0].get_text()


def test_other_document_errors_are_not_password_errors(tmp_path):
    path = tmp_path / "not.pdf"
    path.write_text("plain text")
    with pytest.raises(DocumentError) as caught:
        open_document(path)
    assert not isinstance(caught.value, PasswordRequired)


def test_cli_adds_its_password_flag_to_the_hint(tmp_path, capsys):
    path = _locked(tmp_path / "locked.pdf")
    args = ["erase", "--pdf", str(path), "--page", "1", "--out", str(tmp_path / "out")]
    assert main(args) == 2
    assert "its password is needed; give it with --password" in capsys.readouterr().err
    assert main([*args, "--password", "guess"]) == 2
    assert "wrong password" in capsys.readouterr().err
    assert main([*args, "--password", "sesame"]) == 0
    assert (tmp_path / "out" / "question.png").is_file()


def test_svg_and_images_open_as_one_page_pdfs(tmp_path):
    svg = tmp_path / "figure.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
        '<line x1="10" y1="10" x2="150" y2="80" stroke="black" stroke-width="2"/>'
        '<text x="20" y="40" font-size="14">Label</text></svg>'
    )
    doc = open_document(svg)
    assert doc.is_pdf and doc.page_count == 1
    assert "Label" in doc[0].get_text()
    png = tmp_path / "figure.png"
    pymupdf.open("pdf", _one_page().tobytes())[0].get_pixmap(dpi=72).save(png)
    image_doc = open_document(png)
    assert image_doc.is_pdf and image_doc.page_count == 1
    assert len(image_boxes(image_doc[0])) == 1
    jpg = tmp_path / "figure.jpg"
    pymupdf.open("pdf", _one_page().tobytes())[0].get_pixmap(dpi=72).save(jpg)
    assert open_document(jpg).page_count == 1


def test_unreadable_image(tmp_path):
    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    with pytest.raises(DocumentError, match="cannot read"):
        open_document(path)


def test_pages_are_one_based_and_render_at_dpi(tmp_path):
    doc = open_document(_save(_one_page(), tmp_path / "ok.pdf"))
    with pytest.raises(DocumentError, match="pages 1-1"):
        get_page(doc, 0)
    with pytest.raises(DocumentError, match="pages 1-1"):
        get_page(doc, 2)
    png = render_page(doc, 1, dpi=144, clip=(0, 0, 100, 50))
    pix = pymupdf.Pixmap(png)
    assert (pix.width, pix.height) == (200, 100)
    rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)
    assert pix.n == 3 and rgb[0, 0].tolist() == [255, 255, 255]


def test_content_spans_drawings_and_clip():
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 40), "Left", fontsize=10)
    page.insert_text((200, 40), "Right", fontsize=14)
    page.insert_text((100, 150), "Up", fontsize=12, rotate=90)
    page.draw_line((10, 100), (290, 100), width=1)
    spans = text_spans(page)
    by_text = {s.text.strip(): s for s in spans}
    assert by_text["Left"].size == pytest.approx(10)
    assert by_text["Right"].size == pytest.approx(14)
    assert by_text["Left"].angle == pytest.approx(0)
    assert by_text["Up"].angle == pytest.approx(90)
    assert [s.text.strip() for s in text_spans(page, (0, 0, 150, 100))] == ["Left"]
    assert len(drawings(page)) == 1
    assert drawings(page, (0, 0, 100, 50)) == []
