"""OCR reads a leader's stub or dot touching a label as characters; they are not the name."""

from __future__ import annotations

import pytest

from labeler.erase.raster_path import strip_line_marks


@pytest.mark.parametrize(
    ("read", "name"),
    [
        ("-Notochord", "Notochord"),
        ("Atrium•", "Atrium"),
        ("— Left atrium", "Left atrium"),
        ("Vein -", "Vein"),
        ("·Nucleus·", "Nucleus"),
        ("|Cornea", "Cornea"),
        ("Lens >", "Lens"),
        ("__Dermis", "Dermis"),
        # marks inside a name, and brackets, belong to it
        ("A-V node", "A-V node"),
        ("T-tubule", "T-tubule"),
        ("Aorta (cut)", "Aorta (cut)"),
        ("(Globular protein)", "(Globular protein)"),
        ("-", ""),
        ("Mito-", "Mito-"),  # a word broken over two lines: the grouper joins it back
    ],
)
def test_stubs_at_either_end_are_stripped(read, name):
    assert strip_line_marks(read) == name
