"""Real figures pasted as images on textbook pages erase through the raster path.

Each figure of ``../shared/external-figures`` (the JPEGs as they are, the SVGs rendered to a
PNG first, as a publisher's layout would hold them) is inserted with ``insert_image`` on a
generated textbook page: chapter heading, body text above and below, a caption, the figure at
several widths and positions. For every placement:

* the key equals the labels printed on the figure (written below by eye from the figures and
  LICENSES.md before the code was run on them);
* every pixel of the figure outside the labels' own boxes survives erasure unchanged;
* OCR of the question image reads no key name and no label word.

Gray's elbow plate (rotated labels over hatching, no leaders) is the known limit of decision
0004 and is not among the cases.
"""

from __future__ import annotations

import io
from functools import cache

import cv2
import numpy as np
import pymupdf
import pytest
from PIL import Image

from labeler.erase import erase_figure
from labeler.erase.ocr import read_text
from labeler.erase.residual import readable_in
from labeler.pdf.document import render_pixmap
from tests.erase.test_erase_real_figures import BONE_LABELS
from tests.erase.test_placed_figures import MEMBRANE_LABELS
from tests.paths import EXTERNAL_FIGURES

DPI = 200
BODY = (
    "The figure shows the parts named in the text. Each structure is described in the "
    "paragraphs that follow, with its function, its development and its blood supply. "
) * 3

# The printed labels, one name per label (lines of one label joined), read off the figures.
KEYS = {
    "openstax-ap2e-2409_Tooth.jpg": [
        "Bone", "Cementum", "Crown", "Dentin", "Enamel", "Gingiva (gum)", "Neck",
        "Periodontal ligament", "Pulp cavity (contains blood vessels and nerves)", "Root",
        "Root canal",
    ],
    "openstax-ap2e-1404_The_Structures_of_the_Ear.jpg": [
        "Auricle", "Cochlea", "Cochlear nerve", "Ear canal", "Eustachian tube", "External ear",
        "Incus", "Inner ear", "Malleus", "Middle ear", "Round window",
        "Stapes (attached to oval window)", "Tympanic cavity", "Tympanic membrane",
        "Vestibular nerve", "Vestibule",
    ],
    "openstax-ap2e-0312_Animal_Cell_and_Components.jpg": [
        "Centrosome", "Chromatin", "Cytoplasm", "Golgi apparatus", "Golgi vesicle",
        "Intermediate filament", "Lysosome", "Microfilament", "Microtubule", "Mitochondria",
        "Nucleolus", "Nucleus", "Peroxisome", "Plasma membrane", "Ribosomes",
        "Rough endoplasmic reticulum", "Secretory vesicle", "Smooth endoplasmic reticulum",
        "Vacuole",
    ],
    "bone-cross-section.svg": BONE_LABELS,
    # every label of the rendered SVG, read off it: the second lines in small type join their
    # label, the two compartments printed in red are names too (MEMBRANE_LABELS, the vector
    # test's, is a subset: it lacks "Carbohydrate", "Globular protein", "Hydrophilic heads")
    "cell-membrane-components.svg": [
        "Alpha-Helix protein (Integral protein)", "Carbohydrate", "Cholesterol", "Cytoplasm",
        "Extracellular Fluid", "Filaments of cytoskeleton", "Globular protein", "Glycolipid",
        "Glycoprotein", "Hydrophilic heads", "Hydrophobic tails",
        "Integral protein (Globular protein)", "Peripherial protein", "Phospholipid bilayer",
        "Phospholipid molecule", "Protein channel (transport protein)", "Surface protein",
    ],
}  # fmt: skip

# (figure, width on the page in points, left offset from the margin)
PLACEMENTS = [
    ("openstax-ap2e-2409_Tooth.jpg", 250.0, 254.0),
    ("openstax-ap2e-2409_Tooth.jpg", 400.0, 30.0),
    ("openstax-ap2e-1404_The_Structures_of_the_Ear.jpg", 250.0, 0.0),
    ("openstax-ap2e-1404_The_Structures_of_the_Ear.jpg", 380.0, 124.0),
    ("openstax-ap2e-0312_Animal_Cell_and_Components.jpg", 260.0, 120.0),
    ("openstax-ap2e-0312_Animal_Cell_and_Components.jpg", 440.0, 0.0),
    ("bone-cross-section.svg", 480.0, 12.0),
    ("cell-membrane-components.svg", 480.0, 12.0),
    ("cell-membrane-components.svg", 360.0, 90.0),
]


def _image(name: str) -> tuple[bytes, int, int]:
    """The figure as image bytes: JPEGs as they are, SVGs rendered once to a PNG at 150 dpi."""
    path = EXTERNAL_FIGURES / name
    if path.suffix == ".svg":
        pix = pymupdf.open(path)[0].get_pixmap(dpi=150)
        return pix.tobytes("png"), pix.width, pix.height
    with Image.open(path) as image:
        return path.read_bytes(), image.width, image.height


def place(
    name: str, width: float, left: float, image: tuple[bytes, int, int] | None = None
) -> tuple[pymupdf.Document, tuple[float, ...]]:
    """A textbook page with the figure pasted ``width`` points wide, ``left`` from the margin.

    ``image`` replaces the figure's own picture (same size), e.g. by one without its labels.
    """
    data, w, h = image or _image(name)
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 54), "Chapter 4  Cells, Tissues and Organs", fontsize=16)
    page.insert_textbox(pymupdf.Rect(54, 70, 558, 150), BODY, fontsize=9)
    target = pymupdf.Rect(54 + left, 170, 54 + left + width, 170 + width * h / w)
    page.insert_image(target, stream=data)
    page.insert_text((54, target.y1 + 16), "Figure 4.2  The parts of the structure.", fontsize=9)
    page.insert_textbox(pymupdf.Rect(54, target.y1 + 24, 558, 780), BODY, fontsize=9)
    return pymupdf.open("pdf", doc.tobytes()), tuple(target)


def _rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


@cache
def _erased(name: str, width: float, left: float):
    doc, clip = place(name, width, left)
    result = erase_figure(doc, 1, clip, dpi=DPI)
    return result, clip, read_text(_rgb(result.question_png))


@pytest.fixture(params=PLACEMENTS, ids=lambda p: f"{p[0][:22]}-{p[1]:.0f}pt")
def case(request):
    return request.param, *_erased(*request.param)


def test_the_key_is_the_printed_labels(case):
    (name, _, _), result, _, _ = case
    assert result.method == "ocr"
    assert sorted(label.text for label in result.labels) == KEYS[name]


def test_no_key_text_is_readable_in_the_question(case):
    (name, _, _), _, _, read = case
    words = " ".join(box.text for box in read)
    assert readable_in(KEYS[name], words.lower()) == []
    label_words = {w.strip("()").lower() for n in KEYS[name] for w in n.split() if len(w) >= 4}
    left = {w.strip("()").lower() for w in words.split()} & label_words
    assert left == set()


def test_every_pixel_outside_the_labels_is_kept(case):
    _, result, clip, _ = case
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    assert question.shape == answer.shape
    zoom = DPI / 72
    outside = np.ones(question.shape[:2], dtype=bool)
    area = 0.0
    for label in result.labels:
        x0, y0, x1, y1 = label.bbox
        area += (x1 - x0) * (y1 - y0)
        outside[
            max(0, int((y0 - clip[1] - 1) * zoom)) : int((y1 - clip[1] + 1) * zoom) + 1,
            max(0, int((x0 - clip[0] - 1) * zoom)) : int((x1 - clip[0] + 1) * zoom) + 1,
        ] = False
    # the label boxes are the labels', not the figure's: together a small part of it
    assert area <= 0.2 * (clip[2] - clip[0]) * (clip[3] - clip[1])
    assert np.array_equal(question[outside], answer[outside])
    # and the erasure did something inside them
    assert not np.array_equal(question[~outside], answer[~outside])


@cache
def _unlabelled(name: str) -> tuple[bytes, int, int]:
    """The SVG figure without its lettering, as ``_image`` renders it: the reference.

    Its labels are outline glyphs, removed path by path by the vector eraser (285 glyph paths
    and nothing else, ``test_placed_figures``), so this is the drawing as it is behind them.
    """
    figure = pymupdf.open("pdf", pymupdf.open(EXTERNAL_FIGURES / name).convert_to_pdf())
    bare = pymupdf.open("pdf", erase_figure(figure, 1, dpi=72).question_pdf)
    pix = bare[0].get_pixmap(dpi=150)
    return pix.tobytes("png"), pix.width, pix.height


def _pale(rgb: np.ndarray) -> np.ndarray:
    """Pale coloured pixels: the filaments' fill (black type's mixes with paper are grey)."""
    return (rgb.max(axis=2) - rgb.min(axis=2) >= 40) & (rgb.mean(axis=2) >= 180)


def _pieces(mask: np.ndarray) -> int:
    """Connected pieces of ``mask`` of at least 12 pixels (specks do not count)."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    return int((stats[1:, cv2.CC_STAT_AREA] >= 12).sum())


@pytest.mark.parametrize(("width", "left"), [(480.0, 12.0), (360.0, 90.0)])
def test_pale_drawing_behind_labels_on_paper_is_kept(width, left):
    """The membrane figure pasted as an image: its pale filaments run behind black labels.

    They are no mix of black and paper, so they stay (painting the whole word white used
    to cut every filament a label crossed, and labels crowded by filaments were inpainted or
    patched with texture, which broke them too), the letters over them are inpainted from
    them, and still no label is readable. Compared with the same figure pasted without its
    lettering, the filaments run on across every label box in as many pieces (give or take
    one) as they really are.
    """
    result, clip, read = _erased("cell-membrane-components.svg", width, left)
    question, answer = _rgb(result.question_png).astype(int), _rgb(result.answer_png).astype(int)
    name = "cell-membrane-components.svg"
    bare_doc, bare_clip = place(name, width, left, _unlabelled(name))
    assert bare_clip == clip
    bare = render_pixmap(bare_doc[0], DPI, pymupdf.Rect(clip), annots=False)
    reference = _rgb(bare.tobytes("png")).astype(int)
    zoom = DPI / 72
    inside = np.zeros(question.shape[:2], dtype=bool)
    behind = kept = 0
    for label in result.labels:
        x0, y0, x1, y1 = label.bbox
        box = (
            slice(int((y0 - clip[1]) * zoom), int((y1 - clip[1]) * zoom) + 1),
            slice(int((x0 - clip[0]) * zoom), int((x1 - clip[0]) * zoom) + 1),
        )
        inside[box] = True
        drawn = _pale(reference[box])
        behind += drawn.sum()
        kept += (drawn & (np.abs(question[box] - reference[box]).max(axis=2) <= 30)).sum()
        around = (
            slice(box[0].start - 4, box[0].stop + 4),
            slice(box[1].start - 4, box[1].stop + 4),
        )
        assert _pieces(_pale(question[around])) <= _pieces(_pale(reference[around])) + 1, label.text
    pale = inside & _pale(answer)
    assert pale.sum() > 1000  # the filaments really cross the label boxes
    assert (np.abs(question - answer).max(axis=2)[pale] <= 30).mean() >= 0.9
    assert kept / behind >= 0.9  # of the drawing that is really behind the labels
    words = " ".join(box.text for box in read).lower()
    assert readable_in(sorted(MEMBRANE_LABELS), words) == []
