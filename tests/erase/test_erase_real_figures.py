"""Real, openly licensed figures from ../shared/external-figures (read in place, never copied)."""

from __future__ import annotations

import pymupdf
import pytest

from labeler.erase import erase_figure
from labeler.pdf.document import open_document
from tests.paths import EXTERNAL_FIGURES

FIGURES = EXTERNAL_FIGURES


# Printed on the figure: 8 labels in 13 spans (LICENSES.md says 7 labels, but the
# figure prints eight, "Epiphyseal plate" and "Medullary cavity" sharing one block).
BONE_LABELS = [
    "Articular cartilage",
    "Blood vessels",
    "Cortical (hard) bone",
    "Epiphyseal plate",
    "Marrow",
    "Medullary cavity",
    "Periosteum (membrane covering bone)",
    "Trabecular (spongy) bone",
]


def test_bone_cross_section_vector_text():
    doc = open_document(FIGURES / "bone-cross-section.svg")
    result = erase_figure(doc, 1, dpi=72)
    assert sorted(label.text for label in result.labels) == BONE_LABELS
    assert all(label.kind == "vector" and label.anchor for label in result.labels)
    assert pymupdf.open("pdf", result.question_pdf)[0].get_text().strip() == ""
    anchors = {label.text: label.anchor for label in result.labels}
    # the leader below "Medullary cavity" points up into the cavity
    assert anchors["Medullary cavity"] == pytest.approx((394.92, 301.08), abs=1)


def test_cell_membrane_outlines():
    doc = open_document(FIGURES / "cell-membrane-components.svg")
    assert doc[0].get_text().strip() == ""
    result = erase_figure(doc, 1, dpi=150)
    names = {label.text for label in result.labels}
    assert result.method == "outline"
    for expected in (
        "Protein channel (transport protein)",
        "Cholesterol",
        "Glycolipid",
        "Peripherial protein",  # the original's spelling
        "Filaments of cytoskeleton",
        "Alpha-Helix protein (Integral protein)",
        "Phospholipid bilayer",
        "Hydrophobic tails",
    ):
        assert expected in names
    question = pymupdf.open("pdf", result.question_pdf)[0]
    label_boxes = [pymupdf.Rect(label.bbox) for label in result.labels]
    for drawing in question.get_drawings():  # no black glyph left where a label was
        rect = pymupdf.Rect(drawing["rect"])  # the clip is the whole page: same coordinates
        if drawing["type"] == "f" and drawing.get("fill") == (0.0, 0.0, 0.0):
            assert not any(box.contains(rect) for box in label_boxes)
