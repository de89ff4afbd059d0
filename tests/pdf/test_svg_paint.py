"""SVG paint MuPDF fills black (gradients, style sheets) is rewritten into paint it draws,
and what cannot be rewritten is named in the source's warning."""

from __future__ import annotations

import pymupdf
import pytest

from labeler.curation import add_item_from_document
from labeler.pdf.damage import svg_warning
from labeler.pdf.document import open_document
from labeler.pdf.svg_paint import drawable_svg
from labeler.store import Project
from tests.paths import EXTERNAL_FIGURES

HEAD = b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
GRADIENT = (
    HEAD
    + b""" width="100" height="50">
<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/>
<stop offset="1" stop-color="#ffff00"/></linearGradient></defs>
<rect width="50" height="50" style="fill:url(#g)"/></svg>"""
)
# Inkscape's way: the shape's gradient holds no stops and inherits them through xlink:href;
# the stops are half transparent, given as style properties, one at a percentage offset
INHERITED = (
    HEAD
    + b""" width="100" height="50">
<defs><linearGradient id="stops"><stop offset="0" style="stop-color:#0000ff;stop-opacity:0.5"/>
<stop offset="100%" style="stop-color:#0000ff;stop-opacity:0.5"/></linearGradient>
<radialGradient id="r" xlink:href="#stops" cx="25" cy="25" r="25"/></defs>
<rect width="50" height="50" fill="url(#r)"/></svg>"""
)
STYLESHEET = (
    HEAD
    + b""" width="100" height="50">
<style>/* exported */ rect { fill: #ff0000 } .a, .b { fill:#00ff00 } #own { fill: #0000ff }
</style><rect class="a" width="50" height="50"/><rect id="own" class="a" x="50" width="25"
height="50"/><rect class="b" x="75" width="25" height="50" style="fill:#ffffff"/></svg>"""
)
COMPLEX = (
    HEAD
    + b""" width="100" height="50">
<style>g > rect { fill:#00ff00 }</style><g><rect width="50" height="50"/></g></svg>"""
)
PATTERN = (
    HEAD
    + b""" width="100" height="50">
<defs><pattern id="p" width="4" height="4"><rect width="2" height="2" fill="#f00"/></pattern>
</defs><rect width="50" height="50" fill="url(#p)"/></svg>"""
)
PLAIN = (
    HEAD
    + b""" width="100" height="50">
<rect width="50" height="50" fill="#00ff00"/><rect x="50" width="50" height="50"
style="fill:#0000ff"/></svg>"""
)


def _write(tmp_path, svg: bytes):
    path = tmp_path / "figure.svg"
    path.write_bytes(svg)
    return path


def _pixel(path, x: int, y: int) -> tuple[int, int, int]:
    return open_document(path)[0].get_pixmap().pixel(x, y)


def _close(got, want, tolerance: int = 2) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(got, want, strict=True))


@pytest.mark.parametrize("svg", [GRADIENT, INHERITED, STYLESHEET])
def test_the_premise_mupdf_alone_fills_these_black(tmp_path, svg):
    assert pymupdf.open(_write(tmp_path, svg))[0].get_pixmap().pixel(25, 25) == (0, 0, 0)


def test_a_gradient_is_drawn_as_the_colour_it_averages_to(tmp_path):
    path = _write(tmp_path, GRADIENT)
    assert _close(_pixel(path, 25, 25), (255, 128, 0))  # red to yellow: orange
    warning = svg_warning(path)
    assert "1 gradient fill(s) are drawn as flat colours" in warning
    assert "convert it to PDF" in warning


def test_inherited_half_transparent_stops_keep_their_opacity(tmp_path):
    # blue at half opacity over the white page
    assert _close(_pixel(_write(tmp_path, INHERITED), 25, 25), (128, 128, 255), tolerance=3)


def test_a_style_sheet_is_applied_in_css_order(tmp_path):
    path = _write(tmp_path, STYLESHEET)
    assert _pixel(path, 25, 25) == (0, 255, 0)  # .a beats rect
    assert _pixel(path, 60, 25) == (0, 0, 255)  # #own beats .a
    assert _pixel(path, 90, 25) == (255, 255, 255)  # the element's own style beats the sheet
    assert svg_warning(path) == ""  # everything was applied: nothing to warn about


@pytest.mark.parametrize(
    ("svg", "named"),
    [(COMPLEX, "CSS selector 'g > rect'"), (PATTERN, "pattern or other paint url(#p)")],
)
def test_what_cannot_be_rewritten_is_named(tmp_path, svg, named):
    warning = svg_warning(_write(tmp_path, svg))
    assert "may be black shapes" in warning and named in warning


def test_plain_colours_broken_xml_and_non_svgs_are_left_alone(tmp_path):
    path = _write(tmp_path, PLAIN)
    assert _pixel(path, 25, 25) == (0, 255, 0)
    assert svg_warning(path) == ""
    assert svg_warning(tmp_path / "book.pdf") == ""
    broken = GRADIENT.replace(b"</svg>", b"")
    assert drawable_svg(broken).data == broken


def test_the_real_bone_figure_is_drawn_in_colour_with_its_key(tmp_path):
    figure = EXTERNAL_FIGURES / "bone-cross-section.svg"
    shaft = (75, 300)  # the periosteum-covered shaft, in points: MuPDF alone fills it black
    assert pymupdf.open(figure)[0].get_pixmap().pixel(*shaft) == (0, 0, 0)
    red, green, blue = open_document(figure)[0].get_pixmap().pixel(*shaft)
    assert min(red, green, blue) > 150 and red > blue  # a pale bone colour
    with Project.create(tmp_path / "p") as project:
        item = add_item_from_document(project, figure, 1)
        source = project.sources.get(item.source_id)
        key = [entry.name for entry in project.items.key(item.id)]
    assert "gradient fill(s) are drawn as flat colours" in source.warning
    assert len(key) == 8 and "Articular cartilage" in key
