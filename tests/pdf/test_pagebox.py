"""The direct crop-box setter writes what pymupdf's ``set_cropbox`` writes."""

from __future__ import annotations

import pymupdf
import pytest

from labeler.errors import DocumentError
from labeler.pdf.pagebox import set_cropbox


def two_copies(mediabox: tuple[float, float, float, float], rotation: int):
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((100, 100), "Hello")
    data = doc.tobytes()
    copies = [pymupdf.open("pdf", data), pymupdf.open("pdf", data)]
    for copy in copies:
        copy[0].set_mediabox(pymupdf.Rect(mediabox))
        copy[0].set_rotation(rotation)
    return copies


@pytest.mark.parametrize("mediabox", [(0, 0, 612, 792), (10, 20, 622, 812)])
@pytest.mark.parametrize("rotation", [0, 90])
def test_same_crop_box_as_pymupdf(mediabox, rotation):
    theirs, ours = two_copies(mediabox, rotation)
    theirs[0].set_cropbox((50, 60, 300, 400))
    set_cropbox(ours[0], (50, 60, 300, 400))
    assert ours.xref_get_key(ours[0].xref, "CropBox") == theirs.xref_get_key(
        theirs[0].xref, "CropBox"
    )
    assert ours[0].cropbox == theirs[0].cropbox and ours[0].rect == theirs[0].rect
    # and it survives a save
    again = pymupdf.open("pdf", ours.tobytes())
    assert again[0].cropbox == theirs[0].cropbox


def test_box_outside_the_media_box_is_refused():
    _, ours = two_copies((0, 0, 612, 792), 0)
    with pytest.raises(DocumentError, match="outside the page's media box"):
        set_cropbox(ours[0], (50, 60, 700, 400))
