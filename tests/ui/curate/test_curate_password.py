"""Encrypted PDFs in the Curate view: asked once, kept in memory, passed to every job."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QInputDialog, QLineEdit

from labeler.curation import add_item_from_document
from tests.ui.curate.test_curate_view import curate, drag
from tests.ui.gui_helpers import FIGURE_CLIP, wait_idle, write_cell_pdf
from ui import workers
from ui.curate import documents
from ui.settings import app_settings

PASSWORD = "Cell-secret-7341"  # distinctive, so finding it in a file cannot be a coincidence


@pytest.fixture
def locked_pdf(tmp_path: Path) -> Path:
    """The test PDF, encrypted with AES-256 (user password needed to open it)."""
    plain = write_cell_pdf(tmp_path / "plain.pdf")
    path = tmp_path / "locked.pdf"
    with pymupdf.open(plain) as doc:
        doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=PASSWORD, owner_pw=PASSWORD)
    return path


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    """Replies the password prompt gives, in order, and the prompts it was asked with."""
    replies: list[tuple[str, bool]] = []
    asked: list[tuple[str, QLineEdit.EchoMode]] = []

    def get_text(parent, title, label, echo=QLineEdit.EchoMode.Normal, *args, **kwargs):
        asked.append((label, echo))
        return replies.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    return replies, asked


def evict_open_documents(qtbot, tmp_path: Path) -> None:
    """Open other documents on the document thread until the cache closed the locked one."""
    for n in range(documents.MAX_OPEN):
        other = write_cell_pdf(tmp_path / f"other{n}.pdf")
        workers.start(workers.Worker(documents.describe, str(other)), workers.document_pool())
    wait_idle(qtbot)


def files_containing(folder: Path, secret: str) -> list[Path]:
    return [
        path
        for path in folder.rglob("*")
        if path.is_file() and secret.encode() in path.read_bytes()
    ]


def test_password_is_asked_again_when_wrong_then_used_for_every_job(
    qtbot, window, answers, dialogs, locked_pdf, project_dir, private_settings, tmp_path
):
    replies, asked = answers
    replies += [("guess", True), (PASSWORD, True)]
    view = curate(window)
    view.add_document(str(locked_pdf))
    qtbot.waitUntil(
        lambda: view.info is not None and view.info.path == str(locked_pdf), timeout=15000
    )
    wait_idle(qtbot)
    assert [echo for _, echo in asked] == [QLineEdit.EchoMode.Password] * 2
    assert "encrypted" in asked[0][0] and "wrong password" in asked[1][0]
    assert all("--password" not in label for label, _ in asked)
    assert dialogs == []  # the prompt said it all; no message box on top

    # Page and thumbnail renders reopen the document with the password once it left the cache.
    evict_open_documents(qtbot, tmp_path)
    view.viewer.set_document(view.info, 2)  # drops the page picture: it renders again
    assert view.viewer.canvas.rendered_dpi == 0
    qtbot.waitUntil(lambda: view.viewer.canvas.rendered_dpi > 0, timeout=15000)
    wait_idle(qtbot)
    evict_open_documents(qtbot, tmp_path)  # the page render reopened it; thumbnails on their own
    view.viewer.thumbnails.set_document(view.info)
    qtbot.waitUntil(lambda: view.viewer.thumbnails.thumbs.is_rendered(2), timeout=15000)

    evict_open_documents(qtbot, tmp_path)
    canvas = view.viewer.canvas
    canvas.set_zoom(0.9)
    canvas.centerOn(QPointF(220, 170))
    drag(canvas, FIGURE_CLIP)
    qtbot.waitUntil(lambda: view.draft is not None, timeout=15000)
    assert {e.name for e in view.draft.figure.key} == {"Nucleus", "Cell wall"}
    view.add_draft()
    qtbot.waitUntil(lambda: view.item is not None, timeout=15000)
    wait_idle(qtbot)
    project = window.session.require_project()
    item_id = view.item.id
    assert project.sources.get(view.item.source_id).path == str(locked_pdf)

    # Add box on the stored item: the core opens the PDF afresh, with the remembered password.
    nucleus = next(e for e in project.items.key(item_id) if e.name == "Nucleus")
    x0, y0, x1, y1 = nucleus.bbox
    view.preview.set_tool("extra_boxes")
    drag(view.preview.canvas, (x0 - 3, y0 - 3, x1 + 3, y1 + 3))
    qtbot.waitUntil(lambda: "extra_boxes" in project.items.get(item_id).erase_edits, timeout=15000)
    wait_idle(qtbot)
    assert len(asked) == 2 and dialogs == []

    window.save_state()
    settings = app_settings()
    assert settings.allKeys()  # the settings were written, and hold no password
    assert all(PASSWORD not in str(settings.value(key)) for key in settings.allKeys())
    assert files_containing(private_settings, PASSWORD) == []
    assert files_containing(project_dir, PASSWORD) == []


def test_an_item_added_with_the_cli_asks_once_then_re_erases(
    qtbot, window, answers, dialogs, locked_pdf
):
    replies, asked = answers
    project = window.session.require_project()
    item = add_item_from_document(project, locked_pdf, 2, FIGURE_CLIP, password=PASSWORD)
    window.session.items_changed.emit()
    replies.append((PASSWORD, True))
    view = curate(window)
    view.items.select_item(item.id)
    qtbot.waitUntil(
        lambda: view.info is not None and view.info.path == str(locked_pdf), timeout=15000
    )
    wait_idle(qtbot)
    assert len(asked) == 1

    before = project.items.get(item.id)
    label = next(e for e in project.items.key(item.id) if e.name == "Nucleus")
    view.preview.set_tool("keep")
    canvas = view.preview.canvas
    centre = QPointF((label.bbox[0] + label.bbox[2]) / 2, (label.bbox[1] + label.bbox[3]) / 2)
    QTest.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(centre))
    qtbot.waitUntil(lambda: "keep" in project.items.get(item.id).erase_edits, timeout=15000)
    wait_idle(qtbot)
    assert project.items.get(item.id).question_asset != before.question_asset
    assert len(asked) == 1 and dialogs == []


def test_cancel_shows_nothing_more_and_stores_nothing(qtbot, window, answers, dialogs, locked_pdf):
    replies, asked = answers
    replies.append(("", False))
    view = curate(window)
    view.add_document(str(locked_pdf))
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=15000)
    wait_idle(qtbot)
    assert dialogs == []
    assert window.session.passwords == {}
    sources = window.session.require_project().sources.all()
    assert len(sources) == 1 and sources[0].path != str(locked_pdf)
