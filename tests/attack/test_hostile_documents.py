"""Hostile documents end in a clear DocumentError naming the file, never a traceback or a hang.

Covers the cases of issue #13 through the core and the real CLI, then fuzzes: a small real
PDF truncated at random offsets and with random bit flips must either erase or fail with a
DocumentError; nothing else may escape.
"""

import random

import pymupdf
import pytest
from attack_support import assert_clear_error, cli, cli_in_process
from hostile_docs import CASES, small_pdf

from labeler.erase import erase_figure
from labeler.errors import DocumentError
from labeler.pdf.document import open_document, page_sizes, render_page
from labeler.pdf.figures import propose_figures


def _erase(path, **kwargs):
    doc = open_document(path)
    try:
        return erase_figure(doc, page=1, dpi=kwargs.pop("dpi", 200), **kwargs)
    finally:
        doc.close()


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_hostile_document_is_a_clear_document_error(tmp_path, case):
    build, needle = CASES[case]
    path = build(tmp_path)
    with pytest.raises(DocumentError, match=needle) as err:
        _erase(path)
    assert path.name in str(err.value) or "the document" in str(err.value)


def test_the_cli_names_each_hostile_document_without_a_traceback(tmp_path):
    for case, (build, needle) in sorted(CASES.items()):
        folder = tmp_path / case
        folder.mkdir()
        path = build(folder)
        args = ("erase", "--pdf", str(path), "--page", "1", "--out", str(folder / "o"))
        assert_clear_error(*cli_in_process(*args), needle)
        if case in ("page-tree-cycle", "png-30000px"):  # end to end, in a real process too
            assert_clear_error(*cli(*args), needle)


@pytest.mark.parametrize(
    "clip", [(0, 0, 1e308, 1e308), (-1e308, 0, 100, 100), (0, 0, float("nan"), 50)]
)
def test_an_absurd_clip_is_refused_before_mupdf_sees_it(tmp_path, clip):
    path = tmp_path / "fig.pdf"
    path.write_bytes(small_pdf())
    with pytest.raises(DocumentError, match="not a position on a page"):
        _erase(path, clip=clip)


def test_the_cli_refuses_an_absurd_clip(tmp_path):
    path = tmp_path / "fig.pdf"
    path.write_bytes(small_pdf())
    code, out = cli(
        "erase",
        "--pdf",
        str(path),
        "--page",
        "1",
        "--clip",
        "0,0,1e308,1e308",
        "--out",
        str(tmp_path / "o"),
    )
    assert_clear_error(code, out, "not a position on a page")


def test_the_pixel_budget_is_checked_before_rendering_a_whole_page(tmp_path):
    path = tmp_path / "poster.pdf"
    path.write_bytes(small_pdf(14400, 14400))
    doc = open_document(path)
    with pytest.raises(DocumentError, match="megapixel budget"):
        render_page(doc, 1, dpi=200)
    # a normal clip of the same poster is fine: the budget is about pixels, not page size
    assert render_page(doc, 1, dpi=200, clip=(0, 0, 400, 400)).startswith(b"\x89PNG")
    result = erase_figure(doc, page=1, clip=(40, 80, 400, 400), dpi=100)
    assert {label.text for label in result.labels} == {"aorta", "left ventricle"}


def _fuzz_outcomes(tmp_path, variants):
    outcomes = {"erased": 0, "clear error": 0}
    for i, data in enumerate(variants):
        path = tmp_path / f"v{i}.pdf"
        path.write_bytes(data)
        try:
            doc = open_document(path)
            try:  # what the curate view asks of a document before anything is erased
                page_sizes(doc)
                propose_figures(doc, 1)
                render_page(doc, 1, dpi=36)
            finally:
                doc.close()
            _erase(path, dpi=72)
            outcomes["erased"] += 1
        except DocumentError as exc:
            assert str(path) in str(exc) or "the document" in str(exc) or "page" in str(exc)
            outcomes["clear error"] += 1
    return outcomes


@pytest.mark.slow
def test_truncated_and_bit_flipped_pdfs_erase_or_fail_clearly(tmp_path):
    pymupdf.TOOLS.mupdf_display_errors(False)
    rng = random.Random(1313)
    data = small_pdf()
    truncated = [data[: rng.randrange(1, len(data))] for _ in range(40)]
    flipped = []
    for _ in range(40):
        mutable = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            mutable[rng.randrange(len(mutable))] ^= 1 << rng.randrange(8)
        flipped.append(bytes(mutable))
    outcomes = _fuzz_outcomes(tmp_path, truncated + flipped)
    assert sum(outcomes.values()) == 80
    assert outcomes["clear error"] > 0 and outcomes["erased"] > 0, outcomes
