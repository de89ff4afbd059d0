"""Curate shows a licensed source's attribution line under the figure, and nothing otherwise."""

from __future__ import annotations

from pathlib import Path

from labeler.curation import add_item_from_document
from tests.ui.curate.test_curate_view import curate
from tests.ui.gui_helpers import FIGURE_CLIP, wait_idle, write_cell_pdf

CREDIT = '"Bone cross-section" by Pbroks13, CC BY 3.0, via Wikimedia Commons.'


def test_the_attribution_line_is_under_the_figure(qtbot, window, tmp_path: Path):
    project = window.session.require_project()
    wait_idle(qtbot)
    licensed = add_item_from_document(project, write_cell_pdf(tmp_path / "a.pdf"), 2, FIGURE_CLIP)
    project.sources.set_licence(licensed.source_id, "cc-by-3.0", CREDIT)
    other = write_cell_pdf(tmp_path / "b.pdf")
    with other.open("ab") as f:
        f.write(b"\n% another book\n")
    unlicensed = add_item_from_document(project, other, 2, FIGURE_CLIP)
    window.session.items_changed.emit()
    view = curate(window)
    label = view.preview.attribution

    view.items.select_item(licensed.id)
    wait_idle(qtbot)
    assert label.isVisible() and label.text() == f"Credit: {CREDIT}"
    # under the figure: below the canvas, inside the preview
    assert label.geometry().top() >= view.preview.canvas.geometry().bottom()

    view.items.select_item(unlicensed.id)
    wait_idle(qtbot)
    assert not label.isVisible()
