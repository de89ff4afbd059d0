"""The curator's painted mask erases ink the automatic paths missed, and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from labeler.curation import add_item_from_document, reerase_item
from labeler.erase import erase_figure
from labeler.erase.edits import EraseEdits
from labeler.errors import LabelerError
from labeler.store import Project
from tests.erase.erase_fixtures import decode

DPI = 200
SCALE = 72 / DPI  # points per pixel: the pasted image is laid 1:1 on the render grid
SIZE = (600, 400)  # pixels, width × height
BLUE = (180, 210, 240)
WHITE_BLOB = (300, 150)  # pixel centres of the two smudges
BLUE_BLOB = (480, 315)
BLOB_RADIUS = 5
LINE_Y = 160


def _figure_image() -> np.ndarray:
    """A pasted raster: a leader line ending next to a smudge, and a smudge on a blue panel."""
    import cv2

    rgb = np.full((SIZE[1], SIZE[0], 3), 255, np.uint8)
    cv2.line(rgb, (60, LINE_Y), (290, LINE_Y), (0, 0, 0), 2)
    cv2.circle(rgb, WHITE_BLOB, BLOB_RADIUS, (40, 40, 40), -1)
    cv2.rectangle(rgb, (400, 250), (560, 380), BLUE, -1)
    cv2.circle(rgb, BLUE_BLOB, BLOB_RADIUS, (120, 20, 20), -1)
    return rgb


def _stroke_over(centre: tuple[int, int], width_px: float = 18.0) -> dict:
    """A short horizontal stroke (page points) centred on pixel ``centre``."""
    x, y = centre[0] * SCALE, centre[1] * SCALE
    return {"width": width_px * SCALE, "points": [[x - 3.0, y], [x + 3.0, y]]}


def _under(centre: tuple[int, int], reach: float, half: float = 3.0 / SCALE) -> np.ndarray:
    """Pixels within ``reach`` of the stroke's centre segment (``half`` pixels along x)."""
    yy, xx = np.mgrid[0 : SIZE[1], 0 : SIZE[0]].astype(np.float64)
    dx = np.maximum(np.abs(xx - centre[0]) - half, 0)
    return np.hypot(dx, yy - centre[1]) <= reach


def _blob(centre: tuple[int, int]) -> np.ndarray:
    """The smudge's solid core."""
    return _under(centre, BLOB_RADIUS - 1, half=0)


@pytest.fixture(scope="module")
def figure_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from PIL import Image

    path = tmp_path_factory.mktemp("mask") / "smudges.pdf"
    png = tmp_path_factory.getbasetemp() / "smudges.png"
    Image.fromarray(_figure_image()).save(png)
    doc = pymupdf.open()
    page = doc.new_page(width=SIZE[0] * SCALE, height=SIZE[1] * SCALE)
    page.insert_image(page.rect, filename=str(png))
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def erased(figure_pdf: Path):
    strokes = [_stroke_over(WHITE_BLOB), _stroke_over(BLUE_BLOB)]
    with pymupdf.open(figure_pdf) as doc:
        return erase_figure(doc, 1, dpi=DPI, edits=EraseEdits.from_json({"mask_strokes": strokes}))


def test_painted_smudges_become_background_and_nothing_else_changes(erased):
    question, answer = decode(erased.question_png), decode(erased.answer_png)
    assert question.shape == answer.shape == (SIZE[1], SIZE[0], 3)
    assert erased.labels == [] and erased.method == "mask"  # OCR found nothing: only the brush
    white_blob, blue_blob = _blob(WHITE_BLOB), _blob(BLUE_BLOB)
    assert (answer[white_blob] < 100).all()  # the smudge was there
    assert (question[_under(WHITE_BLOB, 8)] == 255).all()  # white paper: painted white
    # on colour the fill is inpainted from the panel around the stroke
    assert np.abs(question[blue_blob].astype(int) - BLUE).max() <= 6
    outside = ~(_under(WHITE_BLOB, 11) | _under(BLUE_BLOB, 11))
    assert np.array_equal(question[outside], answer[outside])
    leader = np.zeros(outside.shape, bool)
    leader[LINE_Y - 1 : LINE_Y + 2, 60:280] = True
    assert (question[leader] < 100).mean() > 0.6  # the leader line next to the smudge stays


def test_question_pdf_is_patched_over_the_strokes(erased):
    page = pymupdf.open("pdf", erased.question_pdf)[0]
    pix = page.get_pixmap(dpi=DPI, alpha=False)
    rgb = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, 3)
    h, w = min(rgb.shape[0], SIZE[1]), min(rgb.shape[1], SIZE[0])
    region = _blob(WHITE_BLOB)[:h, :w]
    assert rgb[:h, :w][region].min() >= 240
    assert len(page.get_images()) == 3  # the figure plus one patch per stroke


def test_bad_strokes_are_refused_with_a_clear_error(figure_pdf: Path):
    with pymupdf.open(figure_pdf) as doc:
        for bad, words in (
            ([{"width": 0, "points": [[1, 1]]}], "width"),
            ([{"width": 4, "points": []}], "at least one"),
            ([{"width": 4, "points": [[1, "x"]]}], "[x, y]"),
            ([[1, 2]], "mask stroke is"),
        ):
            with pytest.raises(LabelerError, match=words.replace("[", r"\[")):
                erase_figure(doc, 1, dpi=DPI, edits=EraseEdits.from_json({"mask_strokes": bad}))


def test_strokes_round_trip_through_the_project(tmp_path: Path, figure_pdf: Path):
    stroke = _stroke_over(WHITE_BLOB)
    blob = _blob(WHITE_BLOB)
    with Project.create(tmp_path / "p", name="Mask") as project:
        with pytest.raises(LabelerError):
            add_item_from_document(
                project,
                figure_pdf,
                1,
                edits=EraseEdits.from_json({"mask_strokes": [{"width": -1, "points": [[0, 0]]}]}),
            )
        assert project.items.list() == []  # a bad edit stores nothing
        item = add_item_from_document(
            project, figure_pdf, 1, edits=EraseEdits.from_json({"mask_strokes": [stroke]})
        )
        assert item.erase_edits == {"mask_strokes": [stroke]}
        assert item.erase_method == "mask"
        assert (decode(project.assets.read(item.question_asset))[blob] == 255).all()
        unmasked, _ = reerase_item(project, item.id, EraseEdits())
        assert unmasked.erase_edits == {}
        assert (decode(project.assets.read(unmasked.question_asset))[blob] < 100).all()
        reerase_item(project, item.id, EraseEdits.from_json({"mask_strokes": [stroke], "keep": []}))
    with Project.open(tmp_path / "p") as project:
        stored = project.items.get(item.id)
        assert stored.erase_edits == {"mask_strokes": [stroke]}
        assert (decode(project.assets.read(stored.question_asset))[blob] == 255).all()


def test_cli_erase_takes_a_mask_file(tmp_path: Path, figure_pdf: Path):
    mask = tmp_path / "mask.json"
    mask.write_text(json.dumps([_stroke_over(WHITE_BLOB)]))
    out = tmp_path / "out"
    done = _labeler("erase", "--pdf", figure_pdf, "--page", 1, "--out", out, "--mask", mask)
    assert done.returncode == 0, done.stderr
    assert (decode((out / "question.png").read_bytes())[_blob(WHITE_BLOB)] == 255).all()
    mask.write_text('{"width": 3}')
    refused = _labeler(
        "erase", "--pdf", figure_pdf, "--page", 1, "--out", tmp_path / "o2", "--mask", mask
    )
    assert refused.returncode == 2 and "list of strokes" in refused.stderr
    assert not (tmp_path / "o2").exists()


def _labeler(*args) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-m", "labeler", *map(str, args)]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300)
