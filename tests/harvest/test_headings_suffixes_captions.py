"""Key grouping on a page laid out like a real textbook figure.

Coloured group headings over columns of labels ("Skull", "Spinal Column"), stacked labels
each with its own leader, a small-type suffix after a label ("Cranial nerves (I-XII)") and a
two-line caption: the key is the labels, the suffix is the label's note, the headings and
every caption line stay printed and out of the key.
"""

from __future__ import annotations

import pymupdf

from labeler.curation import key_from_labels
from labeler.erase import erase_figure

RED, BLUE = (0.8, 0.1, 0.1), (0.1, 0.3, 0.8)


def _skeleton_page() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page(width=500, height=500)
    page.draw_rect((200, 60, 300, 400), color=(0.3, 0.3, 0.3), fill=(0.9, 0.85, 0.8))

    def column(heading: str, colour, top: float, names: list[str]) -> None:
        page.insert_text((40, top), heading, fontsize=12, color=colour)
        for i, name in enumerate(names):
            y = top + 18 + i * 14
            page.insert_text((40, y), name, fontsize=9)
            start = 42 + pymupdf.get_text_length(name, fontsize=9)
            page.draw_line((start, y - 3), (215, y - 3 + 15 * i), width=0.6)

    column("Skull", RED, 70, ["Cranium", "Mandible"])
    column(
        "Spinal Column", BLUE, 150, ["Cervical vertebrae", "Thoracic vertebrae", "Lumbar vertebrae"]
    )
    page.insert_text((330, 100), "Cranial nerves", fontsize=9)
    page.insert_text((395, 100), "(I-XII)", fontsize=6)
    page.draw_line((328, 97), (290, 110), width=0.6)
    page.insert_text(
        (40, 430), "Figure 7.1 The axial skeleton. The skull and the spinal column", fontsize=8
    )
    page.insert_text(
        (40, 440), "form the axis of the body and protect the brain and spinal cord.", fontsize=8
    )
    return doc


def test_headings_and_captions_stay_out_and_the_suffix_is_a_note():
    result = erase_figure(_skeleton_page(), 1, (30, 50, 480, 450), dpi=100)
    assert sorted(label.text for label in result.labels) == [
        "Cervical vertebrae",
        "Cranial nerves (I-XII)",
        "Cranium",
        "Lumbar vertebrae",
        "Mandible",
        "Thoracic vertebrae",
    ]
    assert all(label.anchor for label in result.labels)  # each its own leader
    assert "Skull" in result.kept and "Spinal Column" in result.kept
    caption = [k for k in result.kept if k.startswith("Figure 7.1")]
    assert caption and caption[0].endswith("brain and spinal cord.")  # both lines, one caption
    key = {e.name: e.note for e in key_from_labels(result.labels, {})}
    assert key["Cranial nerves"] == "I-XII"
    question = pymupdf.open("pdf", result.question_pdf)[0].get_text()
    assert "Skull" in question and "Cranium" not in question


def test_a_black_heading_ending_in_a_colon_heads_its_column():
    """ "Vertebral arch:" over "Lamina" and "Pedicle" (same colour, tight lines) is a heading."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.draw_rect((250, 40, 350, 200), color=(0.3, 0.3, 0.3), fill=(0.9, 0.85, 0.8))
    page.insert_text((40, 77), "Vertebral arch:", fontsize=10)
    for i, name in enumerate(["Lamina", "Pedicle"]):
        y = 92 + i * 12
        page.insert_text((60, y), name, fontsize=10)
        start = 62 + pymupdf.get_text_length(name, fontsize=10)
        page.draw_line((start, y - 3), (260, y + 20 * i), width=0.6)
    result = erase_figure(pymupdf.open("pdf", doc.tobytes()), 1, dpi=72)
    assert sorted(label.text for label in result.labels) == ["Lamina", "Pedicle"]
    assert result.kept == ["Vertebral arch:"]
