"""The raster path on real OpenStax figures (labels burned into JPEGs).

Read from the shared figures folder at test time; see its LICENSES.md (CC BY 4.0,
OpenStax Anatomy and Physiology 2e). The known label lines below were read off the
images by eye.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from PIL import Image

from labeler.erase.ocr import read_text
from labeler.erase.raster import erase_raster_labels, find_raster_anchors
from tests.paths import EXTERNAL_FIGURES

FOLDER = EXTERNAL_FIGURES

KNOWN = {
    "openstax-ap2e-2409_Tooth.jpg": [
        "Enamel", "Crown", "Dentin", "Gingiva", "(gum)", "Neck", "Pulp cavity", "(contains",
        "blood vessels", "and nerves)", "Cementum", "Periodontal", "Root", "ligament",
        "Root canal", "Bone",
    ],
    "openstax-ap2e-1404_The_Structures_of_the_Ear.jpg": [
        "Malleus", "Incus", "Stapes (attached to", "oval window)", "Vestibule", "Auricle",
        "Vestibular nerve", "Cochlear nerve", "Round window", "Ear canal", "Cochlea",
        "Eustachian tube", "Tympanic", "cavity", "membrane", "External ear", "Middle ear",
        "Inner ear",
    ],
    "openstax-ap2e-0312_Animal_Cell_and_Components.jpg": [
        "Mitochondria", "Intermediate", "filament", "Plasma", "membrane", "Ribosomes",
        "Rough endoplasmic", "reticulum", "Microtubule", "Centrosome", "Nucleus", "Nucleolus",
        "Microfilament", "Chromatin", "Lysosome", "Golgi", "apparatus", "Smooth endoplasmic",
        "Secretory vesicle", "Golgi vesicle", "Peroxisome", "Cytoplasm", "Vacuole",
    ],
}  # fmt: skip

# Where leader lines end, checked by eye on 3x crops of the images (px). They
# include polylines (the ear's stapes and Eustachian tube), lines broken by busy
# drawing (the tooth's pulp cavity), a line crossing dotted detail to its part
# (chromatin) and one ending on a textured part (centrosome).
LINE_ENDS = {
    "openstax-ap2e-2409_Tooth.jpg": {
        "Enamel": (731, 30),
        "Dentin": (754, 151),
        "Pulp cavity": (716, 393),
        "Root canal": (724, 749),
        "Bone": (909, 871),
    },
    "openstax-ap2e-1404_The_Structures_of_the_Ear.jpg": {
        "Stapes (attached to": (680, 359),
        "Eustachian tube": (745, 491),
        "Malleus": (599, 311),
    },
    "openstax-ap2e-0312_Animal_Cell_and_Components.jpg": {
        "Centrosome": (515, 264),
        "Chromatin": (242, 373),
        "Golgi vesicle": (194, 495),
    },
}


@cache
def _load(name: str):
    """The figure, its OCR boxes and its erasure (OCR is the slow part: done once)."""
    rgb = np.asarray(Image.open(FOLDER / name).convert("RGB"))
    boxes = read_text(rgb)
    return name, rgb, boxes, erase_raster_labels(rgb, [b.bbox for b in boxes])


@pytest.fixture(params=sorted(KNOWN))
def case(request):
    return _load(request.param)


def _words(text: str) -> set[str]:
    return {w.strip("()").lower() for w in text.split() if len(w.strip("()")) >= 4}


def test_ocr_reads_the_known_labels(case):
    name, _, boxes, _ = case
    read = [b.text.lower() for b in boxes]
    missing = [t for t in KNOWN[name] if t.lower() not in read]
    assert len(missing) <= len(KNOWN[name]) // 10, missing


def test_erased_figure_has_no_readable_labels(case):
    name, rgb, boxes, erased = case
    words = set().union(*(_words(t) for t in KNOWN[name]))
    left = [b.text for b in read_text(erased) if words & _words(b.text)]
    assert left == []
    outside = np.ones(rgb.shape[:2], bool)
    for x0, y0, x1, y1 in (b.bbox for b in boxes):
        outside[y0:y1, x0:x1] = False
    assert np.array_equal(erased[outside], rgb[outside])


def test_leader_lines_stay_attached_to_their_labels(case):
    """Anchors are found from the line pixels next to each box: erasure keeps them."""
    _, rgb, boxes, erased = case
    before = find_raster_anchors(rgb, [b.bbox for b in boxes])
    after = find_raster_anchors(erased, [b.bbox for b in boxes])
    assert sum(a is not None for a in before) >= len(boxes) // 2
    assert after == before


@pytest.mark.parametrize("name", sorted(LINE_ENDS))
def test_anchors_land_on_the_line_ends(name):
    _, rgb, boxes, _ = _load(name)
    found = find_raster_anchors(rgb, [b.bbox for b in boxes])
    anchors = dict(zip([b.text for b in boxes], found, strict=True))
    for text, (x, y) in LINE_ENDS[name].items():
        anchor = anchors[text]
        assert anchor is not None, text
        assert np.hypot(anchor[0] - x, anchor[1] - y) <= 6, (text, anchor)


def test_a_multi_line_label_as_one_box():
    """Label grouping hands over one box per label; its leader is still found."""
    _, rgb, boxes, _ = _load("openstax-ap2e-2409_Tooth.jpg")
    lines = ("Pulp cavity", "(contains", "blood vessels", "and nerves)")
    members = [b.bbox for b in boxes if b.text in lines]
    assert len(members) == len(lines)
    group = (
        min(b[0] for b in members),
        min(b[1] for b in members),
        max(b[2] for b in members),
        max(b[3] for b in members),
    )
    others = [b.bbox for b in boxes if b.text not in lines]
    anchor = find_raster_anchors(rgb, [group, *others])[0]
    assert anchor is not None
    assert np.hypot(anchor[0] - 716, anchor[1] - 393) <= 6
    erased = erase_raster_labels(rgb, [group])
    x0, y0, x1, y1 = group
    assert read_text(np.ascontiguousarray(erased[y0:y1, x0:x1])) == []
