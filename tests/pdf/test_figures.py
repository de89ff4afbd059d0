"""Figure proposals: drawings and images clustered, captions as hints, body text left out."""

from __future__ import annotations

import pymupdf

from labeler.pdf.figures import propose_figures

BODY = "This paragraph of body text runs across the whole column of the page and is not a label."


def test_two_figures_with_captions_and_body_text():
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    page.insert_text((40, 40), BODY, fontsize=9)
    # figure 1: vector drawing with two labels, caption below
    page.draw_circle((200, 180), 60, fill=(0.8, 0.9, 1))
    page.draw_line((120, 130), (170, 160))
    page.insert_text((70, 128), "Nucleus", fontsize=9)
    page.insert_text((60, 280), "Figure 1. A cell.", fontsize=9)
    # figure 2: a pasted image, caption above
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False)
    pix.clear_with(200)
    page.insert_text((60, 400), "Fig. 2 A photograph.", fontsize=9)
    page.insert_image(pymupdf.Rect(60, 420, 360, 640), pixmap=pix)
    page.insert_text((40, 760), BODY, fontsize=9)
    proposed = propose_figures(pymupdf.open("pdf", doc.tobytes()), 1)
    assert [c.score for c in proposed] == sorted((c.score for c in proposed), reverse=True)
    found = sorted(proposed, key=lambda c: c.clip[1])
    assert [c.caption for c in found] == ["Figure 1. A cell.", "Fig. 2 A photograph."]
    first, second = found
    assert (
        first.clip[0] <= 70
        and first.clip[1] <= 120
        and first.clip[2] >= 260
        and first.clip[3] >= 240
    )
    assert first.clip[3] < 280  # the caption itself is not in the clip
    assert second.clip[1] <= 420 and second.clip[3] >= 640
    assert all(c.clip[1] > 50 and c.clip[3] < 750 for c in found)  # body text stays out
    assert all(0 < c.score <= 1 for c in found)


def test_a_page_without_figures_proposes_nothing():
    doc = pymupdf.open()
    doc.new_page().insert_text((40, 40), BODY, fontsize=9)
    assert propose_figures(doc, 1) == []
