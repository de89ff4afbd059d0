"""SVGs whose gradients or style sheets MuPDF fills black are stored with a warning."""

from __future__ import annotations

import pymupdf
import pytest

from labeler.curation import add_item_from_document
from labeler.pdf.damage import svg_warning
from labeler.store import Project
from tests.paths import EXTERNAL_FIGURES

GRADIENT = b"""<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">
<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/>
<stop offset="1" stop-color="#ffff00"/></linearGradient></defs>
<rect width="50" height="50" style="fill:url(#g)"/></svg>"""
STYLESHEET = b"""<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">
<style>.a{fill:#00ff00}</style><rect class="a" width="50" height="50"/></svg>"""
PLAIN = b"""<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">
<rect width="50" height="50" fill="#00ff00"/><rect x="50" width="50" height="50"
style="fill:#0000ff"/></svg>"""


@pytest.mark.parametrize(
    ("svg", "said"),
    [(GRADIENT, "gradient or pattern fills"), (STYLESHEET, "CSS style sheets")],
)
def test_features_mupdf_fills_black_are_named(tmp_path, svg, said):
    path = tmp_path / "figure.svg"
    path.write_bytes(svg)
    # the premise: MuPDF really draws the shape black
    assert pymupdf.open(path)[0].get_pixmap().pixel(25, 25) == (0, 0, 0)
    warning = svg_warning(path)
    assert said in warning and "convert it to PDF" in warning


def test_plain_colours_and_non_svgs_get_no_warning(tmp_path):
    path = tmp_path / "figure.svg"
    path.write_bytes(PLAIN)
    assert pymupdf.open(path)[0].get_pixmap().pixel(25, 25) == (0, 255, 0)
    assert svg_warning(path) == ""
    assert svg_warning(tmp_path / "book.pdf") == ""


def test_the_real_bone_figure_is_added_with_its_warning(tmp_path):
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(project, EXTERNAL_FIGURES / "bone-cross-section.svg", 1)
        source = project.sources.get(item.source_id)
    assert "gradient or pattern fills" in source.warning
