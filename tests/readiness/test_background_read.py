"""The question's OCR read-back runs on a worker thread while ``add-item`` stores the question.

Real figures, real erasure, real OCR. The read from the question's pixels on the worker must
give exactly the check that reading the stored PNG gives, and an OCR failure there must end as
it would on the main thread: one clear error, and nothing stored (the read is waited for
before the commit).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

import labeler.erase.ocr
from labeler.cli import main
from labeler.curation import add_item_from_document
from labeler.data import SAMPLE_BOOK, data_file
from labeler.erase.edits import EraseEdits
from labeler.errors import LabelerError
from labeler.readiness import check_residual_labels
from labeler.samples.book import layout
from labeler.store import Project
from tests.paths import EXTERNAL_FIGURES

BOOK = data_file(SAMPLE_BOOK)
TOOTH = EXTERNAL_FIGURES / "openstax-ap2e-2409_Tooth.jpg"


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "p") as p:
        yield p


def _read_back_by(monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> list[str]:
    """Record the thread of every read-back OCR call (and make it fail when ``fail``).

    The read-back finds ``read_text`` on ``labeler.erase.ocr`` when it runs; the erasure's own
    pass bound it at import, so only the read-back is seen here.
    """
    threads: list[str] = []
    real = labeler.erase.ocr.read_text

    def read_text(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        if fail:
            raise LabelerError("OCR failed while reading the question back")
        return real(*args, **kwargs)

    monkeypatch.setattr(labeler.erase.ocr, "read_text", read_text)
    return threads


def test_the_worker_reads_what_the_stored_question_shows(project, monkeypatch):
    scan = next(f for f in layout() if f.spec.raster)  # the scanned plate: labels burned in
    first = add_item_from_document(project, BOOK, scan.page, scan.clip)
    left = next(e for e in project.items.key(first.id) if e.bbox is not None)
    threads = _read_back_by(monkeypatch)
    # one label left printed, so the read-back has words to agree on
    item = add_item_from_document(
        project,
        BOOK,
        scan.page,
        scan.clip,
        edits=EraseEdits(keep=(left.bbox,)),
        allow_duplicate=True,
    )
    assert threads and all(t != threading.main_thread().name for t in threads)
    stored = project.residual_checks.get(item.id)
    assert stored is not None and stored.method == "pdf-text+ocr" and stored.read_text
    # the sequential path: the stored PNG decoded and read on this thread
    again = check_residual_labels(project, item.id)
    assert threads[-1] == threading.main_thread().name
    assert (again.read_text, again.readable, again.method, again.question) == (
        stored.read_text,
        stored.readable,
        stored.method,
        stored.question,
    )


def test_an_ocr_failure_on_the_worker_stores_nothing(project, monkeypatch):
    scan = next(f for f in layout() if f.spec.raster)
    threads = _read_back_by(monkeypatch, fail=True)
    with pytest.raises(LabelerError, match="OCR failed while reading the question back"):
        add_item_from_document(project, BOOK, scan.page, scan.clip)
    assert threads  # the read-back was reached, and it failed
    assert project.items.list() == []
    assert project.residual_checks.all() == {}
    assert project.sources.all() == []


def test_the_cli_says_so_in_one_line_and_stores_nothing(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "p"
    assert main(["init", str(folder)]) == 0
    capsys.readouterr()
    _read_back_by(monkeypatch, fail=True)
    assert main(["add-item", str(folder), "--pdf", str(TOOTH), "--page", "1"]) == 2
    out, err = capsys.readouterr()
    assert err == "labeler: error: OCR failed while reading the question back\n"
    assert out == ""
    with Project.open(folder) as project:
        assert project.items.list() == []
        assert project.residual_checks.all() == {}
