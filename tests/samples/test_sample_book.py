"""The generated sample textbook: real text, real leader lines, captions outside the clips."""

import pymupdf

from labeler.demo import SAMPLE_BOOK
from labeler.samples.book import layout, write_sample_book


def test_sample_book_places_each_figure_with_its_labels_inside_the_clip(tmp_path):
    placed = write_sample_book(tmp_path / "book.pdf")
    doc = pymupdf.open(tmp_path / "book.pdf")
    assert doc.page_count == len(placed) == 8
    for fig in placed:
        page = doc[fig.page - 1]
        clip = pymupdf.Rect(fig.clip)
        inside = page.get_text("text", clip=clip)
        if fig.spec.raster:
            assert inside.strip() == ""  # labels are burned into the image
            assert page.get_images()
            continue
        for label in fig.spec.labels:
            for line in label.lines:
                assert line in inside, (fig.spec.subject, line)
        caption = page.search_for(f"Figure {fig.page}.")
        assert caption and not clip.intersects(caption[0])
        strokes = [d for d in page.get_drawings() if d["type"] == "s" and clip.contains(d["rect"])]
        assert len(strokes) >= len([x for x in fig.spec.labels if x.side != "marker"])


def test_repeat_makes_a_long_book(tmp_path):
    placed = write_sample_book(tmp_path / "long.pdf", repeat=3)
    assert [p.page for p in placed] == list(range(1, 25))


def test_shipped_sample_book_matches_the_generator(tmp_path):
    fresh = tmp_path / "fresh.pdf"
    write_sample_book(fresh)
    shipped, generated = pymupdf.open(SAMPLE_BOOK), pymupdf.open(fresh)
    assert shipped.page_count == generated.page_count
    for a, b in zip(shipped, generated, strict=True):
        assert a.get_text() == b.get_text()
        assert len(a.get_drawings()) == len(b.get_drawings())
    assert [p.clip for p in layout()] == [p.clip for p in write_sample_book(fresh)]
