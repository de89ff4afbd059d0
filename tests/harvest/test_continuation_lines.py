"""Lines of one raster label stay one name when a stray line seems to leave the second one.

A pasted figure's labels reach harvest as OCR lines, and each line's "own leader" is found in
the pixels: a pale outline of the drawing running off a label's second line (the membrane
figure's filaments) looks like one, and used to split every such label into two names. On a
small synthetic figure (drawn, rendered to a PNG, pasted as an image, so it goes through OCR)
each rule that says "this line continues the label above" is tried once, each second line
with such a stray outline: a first line ending on "of", in a hyphen or a comma; a bracketed
second line; a second line in smaller type; a second line centred under the first. Two stacked
labels in the same type, each with its own black leader, stay two names, and a label's
trailing comma is not part of its name. (Each of these labels splits when its rule is taken
out of ``labeler.harvest.group._runs_on``.)
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pymupdf
import pytest

from labeler.erase import EraseResult, erase_figure
from labeler.harvest.type_size import x_height

GREY = (0.65, 0.65, 0.6)  # the outline of a pale drawing: not black like the leaders
DPI = 200


def _figure() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page(width=560, height=380)
    page.draw_rect((230, 40, 300, 350), color=(0.2, 0.2, 0.2), fill=(0.85, 0.9, 0.95), width=1)

    def label(x: float, y: float, lines: list[tuple[str, float]], target, stray=True) -> None:
        """A label at (x, y) whose black leader leaves its first line towards ``target``.

        A second line starting with ">" is centred under the first. With ``stray``, a grey
        outline runs off each further line's outer end, as a drawing's would.
        """
        first, size0 = lines[0]
        right = target[0] > x
        width0 = pymupdf.get_text_length(first, fontsize=size0)
        start = x + width0 + 3 if right else x - 3
        page.draw_line((start, y - size0 * 0.35), target, width=0.8)
        page.insert_text((x, y), first, fontsize=size0)
        for text, size in lines[1:]:
            y += size * 1.15
            indent = 0.0
            if text.startswith(">"):
                text = text[1:]
                indent = (width0 - pymupdf.get_text_length(text, fontsize=size)) / 2
            page.insert_text((x + indent, y), text, fontsize=size)
            if stray:
                width = pymupdf.get_text_length(text, fontsize=size)
                off = x + indent - 2 if right else x + indent + width + 2
                away = -58 if right else 58
                page.draw_line((off, y - size * 0.35), (off + away, y + 25), width=0.8, color=GREY)

    label(80, 50, [("Integral protein", 10), ("(Globular protein)", 8)], (240, 60))
    label(80, 110, [("Filaments of", 10), ("cytoskeleton", 10)], (240, 120))
    label(80, 170, [("Alpha-Helix protein", 10), (">channel", 10)], (240, 170))
    label(80, 230, [("Mito-", 10), ("chondrion", 10)], (240, 230))
    label(80, 290, [("Nerve fibre,", 10), ("cut end", 10)], (240, 290))
    label(330, 60, [("Nuclear envelope", 10), ("double membrane", 8.5)], (290, 70))
    label(330, 120, [("Carbohydrate,", 10)], (290, 125), stray=False)
    label(330, 180, [("Cranium", 10)], (290, 180))
    label(330, 193, [("Mandible", 10)], (290, 205))
    label(330, 250, [("Outer leaflet", 10), ("(lipid heads)", 10)], (290, 250))
    return doc


def _pasted(figure: pymupdf.Document) -> pymupdf.Document:
    """The figure rendered to a PNG and pasted as an image on a page of its size."""
    pix = figure[0].get_pixmap(dpi=DPI)
    doc = pymupdf.open()
    page = doc.new_page(width=figure[0].rect.width, height=figure[0].rect.height)
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    return pymupdf.open("pdf", doc.tobytes())


@cache
def _erased() -> EraseResult:
    return erase_figure(_pasted(_figure()), 1, dpi=DPI)


@pytest.mark.parametrize(
    ("rule", "name"),
    [
        ("the first line ends on 'of'", "Filaments of cytoskeleton"),
        ("the first line ends in a hyphen", "Mitochondrion"),
        ("the first line ends in a comma", "Nerve fibre, cut end"),
        ("the second line is bracketed", "Outer leaflet (lipid heads)"),
        ("the second line is in smaller type", "Nuclear envelope double membrane"),
        ("bracketed and smaller", "Integral protein (Globular protein)"),
        ("the second line is centred under the first", "Alpha-Helix protein channel"),
    ],
)
def test_a_line_that_plainly_continues_its_label_joins_it(rule, name):
    result = _erased()
    assert result.method == "ocr"
    assert name in [label.text for label in result.labels], rule


def test_the_key_is_one_name_per_label():
    assert sorted(label.text for label in _erased().labels) == [
        "Alpha-Helix protein channel",
        "Carbohydrate",  # printed "Carbohydrate,"
        "Cranium",  # stacked over "Mandible", each with its own leader: two names
        "Filaments of cytoskeleton",
        "Integral protein (Globular protein)",
        "Mandible",
        "Mitochondrion",
        "Nerve fibre, cut end",
        "Nuclear envelope double membrane",
        "Outer leaflet (lipid heads)",
    ]
    # the label keeps its own black leader as anchor, not the grey outline of its second line
    anchors = {label.text: label.anchor for label in _erased().labels}
    assert anchors["Filaments of cytoskeleton"] == pytest.approx((240, 120), abs=2)


def _line(text: str, size: float) -> np.ndarray:
    """One line of black type on white, rendered at ``DPI`` and cropped to its ink's rows."""
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=40)
    page.insert_text((5, 25), text, fontsize=size)
    pix = page.get_pixmap(dpi=DPI)
    rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)
    rows = np.flatnonzero((rgb.min(axis=2) < 200).any(axis=1))
    return rgb[rows[0] - 1 : rows[-1] + 2]


def test_the_x_height_is_the_type_size_not_the_box_height():
    """ "cytoskeleton" (a descender, ascenders) has a taller box than "Filaments of" in the
    same type; the x-height is the same, and a gloss in 8.5 pt under 10 pt type measures 0.85."""
    same, other = _line("Filaments of", 10), _line("cytoskeleton", 10)
    assert other.shape[0] > same.shape[0]  # the boxes differ
    assert x_height(other) == pytest.approx(x_height(same), rel=0.04)
    big, small = _line("Integral protein", 10), _line("(Globular protein)", 8.5)
    assert x_height(small) / x_height(big) == pytest.approx(0.85, abs=0.04)
    assert x_height(np.full((20, 40, 3), 255, np.uint8)) is None  # nothing to measure
