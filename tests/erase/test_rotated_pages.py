"""Issue #11: a figure on a page with ``/Rotate 90/180/270`` erases as on the upright page.

The pages are the upright textbook pages of ``test_placed_figures`` / ``test_pasted_figures``
given a ``/Rotate``; the clip is the upright figure's clip turned onto the page as displayed
(the frame the Curate view shows and ``default_clip`` proposes in). Before the fix the bone
figure keyed 5-11 names with body text redacted, the membrane 1-9 of 17 or a traceback.
"""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pymupdf
import pytest

from labeler.curation import default_clip
from labeler.erase import erase_figure
from labeler.erase.edits import EraseEdits
from labeler.erase.mask import Stroke
from labeler.erase.ocr import read_text
from labeler.erase.residual import readable_in
from labeler.scan import page_candidates
from labeler.store import Project
from tests.erase.test_pasted_figures import KEYS, place
from tests.erase.test_placed_figures import _place
from tests.labeler_cli import run_labeler

DPI = 150
BONE, MEMBRANE, TOOTH = (
    "bone-cross-section.svg",
    "cell-membrane-components.svg",
    "openstax-ap2e-2409_Tooth.jpg",
)
CASES = [(BONE, 90), (BONE, 180), (BONE, 270), (MEMBRANE, 90), (MEMBRANE, 180)]
CASES += [(MEMBRANE, 270), (TOOTH, 90)]


@cache
def _upright(name: str) -> tuple[pymupdf.Document, tuple]:
    """The upright page: vector figures drawn at 0.53×, the raster one pasted 200 pt wide."""
    return place(name, 200.0, 20) if name == TOOTH else _place(name, 0.53, 20)


def _turned(name: str, rotation: int) -> tuple[pymupdf.Document, tuple]:
    doc, clip = _upright(name)
    turned = pymupdf.open("pdf", doc.tobytes())
    turned[0].set_rotation(rotation)
    turned = pymupdf.open("pdf", turned.tobytes())
    return turned, tuple(pymupdf.Rect(clip) * turned[0].rotation_matrix)


@cache
def _erased(name: str, rotation: int):
    doc, clip = _turned(name, rotation) if rotation else _upright(name)
    return erase_figure(doc, 1, clip, dpi=DPI)


def _keys(result) -> list[str]:
    return sorted(label.text for label in result.labels)


@pytest.mark.parametrize(("name", "rotation"), CASES)
def test_a_rotated_page_keys_what_the_upright_page_keys(name, rotation):
    assert _keys(_erased(name, 0)) == KEYS[name]
    assert _keys(_erased(name, rotation)) == KEYS[name]
    assert _erased(name, rotation).method == _erased(name, 0).method


@pytest.mark.parametrize(("name", "rotation"), CASES)
def test_a_rotated_page_erases_the_upright_pixels_turned(name, rotation):
    turned, upright = _erased(name, rotation), _erased(name, 0)
    quarter = -rotation // 90  # /Rotate turns clockwise, np.rot90 anticlockwise
    assert np.array_equal(turned.question.rgb, np.rot90(upright.question.rgb, quarter))
    assert np.array_equal(turned.answer.rgb, np.rot90(upright.answer.rgb, quarter))
    assert not np.array_equal(turned.question.rgb, turned.answer.rgb)
    # the answer is the clip as displayed: MuPDF's own render of it differs only where its
    # pixel grid, anchored at the other corner of the clip, anti-aliases an edge differently
    doc, clip = _turned(name, rotation)
    shown = doc[0].get_pixmap(dpi=DPI, clip=clip, alpha=False, colorspace=pymupdf.csRGB)
    rgb = np.frombuffer(shown.samples, np.uint8).reshape(shown.height, shown.width, 3)
    assert rgb.shape == turned.answer.rgb.shape
    assert (np.abs(rgb.astype(int) - turned.answer.rgb).max(axis=2) <= 24).mean() >= 0.98


@pytest.mark.parametrize(("name", "rotation"), CASES)
def test_no_key_text_is_readable_in_a_rotated_pages_question(name, rotation):
    result = _erased(name, rotation)
    question = pymupdf.open("pdf", result.question_pdf)[0]
    assert question.get_text().strip() == ""
    # the question PDF shows the clip as displayed (its width and height turned)
    clip = pymupdf.Rect(result.clip)
    assert question.rect.width == pytest.approx(clip.width, abs=0.5)
    assert question.rect.height == pytest.approx(clip.height, abs=0.5)
    # ... and is the question image, up to a pixel grid anchored at the displayed clip's
    # corner instead of the unrotated clip's (one pixel more or less, anti-aliasing moved:
    # 95.7-99.9 % of pixels agree, the upright page's 99.1 %; turned the wrong way, 51-58 %)
    pix = question.get_pixmap(dpi=DPI, alpha=False, colorspace=pymupdf.csRGB)
    shown = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3).astype(int)
    image = result.question.rgb.astype(int)
    assert abs(shown.shape[0] - image.shape[0]) <= 1 and abs(shown.shape[1] - image.shape[1]) <= 1
    height, width = min(shown.shape[0], image.shape[0]), min(shown.shape[1], image.shape[1])
    assert _best_shift_match(shown[:height, :width], image[:height, :width]) >= 0.95
    # OCR reads upright text: turn the question back to the figure's own orientation
    upright = np.ascontiguousarray(np.rot90(result.question.rgb, rotation // 90))
    read = " ".join(box.text for box in read_text(upright)).lower()
    assert readable_in(KEYS[name], read) == []


def _best_shift_match(a: np.ndarray, b: np.ndarray) -> float:
    """Best share of pixels within 24 levels over shifts of ``a`` by at most one pixel."""
    inner = (slice(2, -2), slice(2, -2))
    return max(
        float((np.abs(np.roll(a, (dy, dx), (0, 1)) - b).max(axis=2)[inner] <= 24).mean())
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
    )


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_labels_and_the_proposed_region_are_on_the_page_as_displayed(rotation):
    doc = _turned(MEMBRANE, rotation)[0]
    page = doc[0]
    for label, upright in zip(
        _erased(MEMBRANE, rotation).labels, _erased(MEMBRANE, 0).labels, strict=True
    ):
        assert label.bbox == pytest.approx(
            tuple(pymupdf.Rect(upright.bbox) * page.rotation_matrix), abs=0.02
        )
    proposed = default_clip(_upright(MEMBRANE)[0], 1)
    assert proposed is not None
    assert default_clip(doc, 1) == pytest.approx(
        tuple(pymupdf.Rect(proposed) * page.rotation_matrix), abs=0.02
    )


def test_the_cli_erases_past_the_unrotated_media_box_and_refuses_a_clip_off_the_page(tmp_path):
    doc, clip = _turned(MEMBRANE, 90)
    pdf = tmp_path / "mem-rot90.pdf"
    doc.save(pdf)
    assert clip[2] > doc[0].mediabox.x1  # the audit's clip: visible, past the media box
    region = ",".join(f"{v:.2f}" for v in clip)
    out = tmp_path / "out"
    done = run_labeler("erase", "--pdf", pdf, "--page", 1, "--clip", region, "--out", out)
    assert done.returncode == 0, done.stderr
    assert (
        sorted(e["text"] for e in json.loads((out / "labels.json").read_text())) == KEYS[MEMBRANE]
    )
    off = run_labeler("erase", "--pdf", pdf, "--page", 1, "--clip", "800,10,900,90", "--out", out)
    assert off.returncode == 2
    assert off.stderr.strip().startswith("labeler: error:") and "Traceback" not in off.stderr


def test_add_item_on_a_rotated_page_keys_as_on_the_upright_page(tmp_path):
    keys = []
    for rotation in (0, 90):
        doc = _turned(BONE, rotation)[0] if rotation else _upright(BONE)[0]
        pdf = tmp_path / f"bone-{rotation}.pdf"
        doc.save(pdf)
        folder = tmp_path / f"project-{rotation}"
        assert run_labeler("init", folder, "--no-starter-lexicon").returncode == 0
        done = run_labeler("add-item", folder, "--pdf", pdf, "--page", 1)
        assert done.returncode == 0, done.stderr
        with Project.open(folder) as project:
            (item,) = project.items.list()
            keys.append(sorted(e.name for e in project.items.key(item.id)))
    assert keys[0] == keys[1] and len(keys[0]) == len(KEYS[BONE])


@pytest.mark.parametrize("rotation", [90, 270])
def test_the_curators_edits_are_drawn_on_the_page_as_displayed(rotation):
    doc, clip = _upright(BONE)
    upright = _erased(BONE, 0)
    dropped = upright.labels[0]  # a proposed label the curator says is not one
    x0, y0, x1, y1 = upright.labels[-1].bbox
    stroke = Stroke(width=6.0, points=((x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2)))
    edits = EraseEdits(removed_boxes=(dropped.bbox,), mask_strokes=(stroke,))
    expected = erase_figure(doc, 1, clip, dpi=DPI, edits=edits)
    turned_doc, turned_clip = _turned(BONE, rotation)
    matrix = turned_doc[0].rotation_matrix
    shown = EraseEdits(
        removed_boxes=(tuple(pymupdf.Rect(dropped.bbox) * matrix),),
        mask_strokes=(
            Stroke(
                width=6.0, points=tuple(tuple(pymupdf.Point(p) * matrix) for p in stroke.points)
            ),
        ),
    )
    result = erase_figure(turned_doc, 1, turned_clip, dpi=DPI, edits=shown)
    assert _keys(result) == _keys(expected) == sorted(set(KEYS[BONE]) - {dropped.text})
    assert dropped.text in result.kept and result.method.endswith("mask")
    assert np.array_equal(result.question.rgb, np.rot90(expected.question.rgb, -rotation // 90))


def test_scan_finds_a_rotated_pages_figure_where_it_is_displayed():
    upright = page_candidates(_upright(BONE)[0], 1)
    doc = _turned(BONE, 90)[0]
    turned = page_candidates(doc, 1)
    assert [(c.kind, c.labels, c.with_leaders) for c in turned] == [
        (c.kind, c.labels, c.with_leaders) for c in upright
    ]
    assert upright and upright[0].labels >= len(KEYS[BONE])
    for shown, candidate in zip(turned, upright, strict=True):
        expected = tuple(pymupdf.Rect(candidate.clip) * doc[0].rotation_matrix)
        assert shown.clip == pytest.approx(expected, abs=0.02)
