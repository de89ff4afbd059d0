"""A tilted label of two lines comes into the key as one entry (``raster_path.stacked``).

The grouper stacks lines by their boxes; a tilted line's box is its axis-aligned hull, which
on a label at 40° overlaps everything near it, so tilted OCR lines are stacked in their own
frame first: same direction, right under each other, overlapping and aligned along the line.
"""

from __future__ import annotations

from functools import cache

import pymupdf

from labeler.erase import erase_figure
from labeler.erase.raster_path import stacked
from labeler.harvest import Fragment
from tests.erase.tilted_quads import along, hull, tilted_quad

ANGLE = 40.0  # degrees, counter-clockwise on the page
SIZE = 18.0
FIRST = ("Oblique", (90.0, 120.0))
SECOND = "cord"


def _line(text: str, start: tuple[float, float], length: float, angle: float) -> Fragment:
    """A tilted OCR line fragment: its quad (pixels) runs ``length`` from ``start``."""
    height = 20.0
    quad = tilted_quad(start, length, angle, height)
    return Fragment(
        text=text,
        bbox=hull(quad),
        size=height / 1.2,
        kind="ocr",
        direction=along(angle),
        parts=[quad],
    )


def _below(start: tuple[float, float], by: float, angle: float, shift: float = 0.0):
    """``start`` moved ``by`` pixels across the lines and ``shift`` along them."""
    ax, ay = along(angle)
    return (start[0] - by * ay + shift * ax, start[1] + by * ax + shift * ay)


def test_two_lines_under_each_other_are_one_label():
    top = _line("Oblique", (100.0, 100.0), 120.0, -40.0)
    under = _line("cord", _below((100.0, 100.0), 22.0, -40.0, shift=30.0), 60.0, -40.0)
    (joined,) = stacked([under, top])
    assert joined.text == "Oblique cord"
    assert joined.parts == top.parts + under.parts  # each line is erased inside its own quad
    assert joined.direction == top.direction


def test_lines_one_after_the_other_stay_apart():
    first = _line("Coronoid proc", (100.0, 100.0), 120.0, -20.0)
    after = _line("ANNULAR LIGAMT", _below((100.0, 100.0), 0.0, -20.0, shift=130.0), 150.0, -20.0)
    assert [f.text for f in stacked([first, after])] == ["Coronoid proc", "ANNULAR LIGAMT"]


def test_neighbours_not_aligned_or_at_other_angles_stay_apart():
    top = _line("OBLIQUE CORD", (100.0, 100.0), 200.0, 65.0)
    # right beside it across the lines, but starting two thirds of the way along: another label
    beside = _line("Aperture", _below((100.0, 100.0), 22.0, 65.0, shift=140.0), 90.0, 65.0)
    assert len(stacked([top, beside])) == 2
    turned = _line("for", _below((100.0, 100.0), 22.0, 40.0), 60.0, 40.0)
    assert len(stacked([top, turned])) == 2


def _figure_png() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=360, height=300)
    page.draw_rect((0, 0, 360, 300), color=None, fill=(0.96, 0.93, 0.82))  # a tinted plate
    page.insert_text((250, 60), "Radius", fontsize=14, fontname="tiro")
    text, origin = FIRST
    turn = pymupdf.Matrix(-ANGLE)
    page.insert_text(
        origin, text, fontsize=SIZE, fontname="tiro", morph=(pymupdf.Point(origin), turn)
    )
    # the second line 1.2 sizes under the first, in the label's own frame, centred under it
    first_width = pymupdf.get_text_length(text, fontname="tiro", fontsize=SIZE)
    width = pymupdf.get_text_length(SECOND, fontname="tiro", fontsize=SIZE)
    shift, drop = (first_width - width) / 2, 1.2 * SIZE
    # morph turns in PDF space (y up): on the page the text runs down to the right at ANGLE
    at = pymupdf.Point(_below(origin, drop, ANGLE, shift))
    page.insert_text(at, SECOND, fontsize=SIZE, fontname="tiro", morph=(at, turn))
    return page.get_pixmap(dpi=150).tobytes("png")


@cache
def _erased():
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    target = pymupdf.Rect(80, 90, 440, 390)
    page.insert_image(target, stream=_figure_png())
    return erase_figure(pymupdf.open("pdf", doc.tobytes()), 1, tuple(target), dpi=200)


def test_a_pasted_two_line_tilted_label_is_one_key_entry():
    names = [label.text for label in _erased().labels]
    assert "Oblique cord" in names, names
    assert "Radius" in names
