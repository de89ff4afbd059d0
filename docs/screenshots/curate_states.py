"""Draw the Curate screenshots of docs/screenshots/ (offscreen, reproducible).

    labeler demo --screenshot-dir /tmp/shots            # builds the demo project in ./labeler-demo
    QT_QPA_PLATFORM=offscreen python docs/screenshots/curate_states.py labeler-demo docs/screenshots

For each window size (1280×800, 1024×640) and palette (light, dark) it draws Review and the
Leaderboard on the demo project, and Curate on the
demo's first item (a real figure, erased and keyed, with its credit line), the same figure
zoomed in on a label with one box rejected (struck through), the relink bar of a moved
source, the Decisions tab with two reviewers' trail (both in throw-away copies of the
project), and the Help ▸ Keyboard shortcuts list.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF

from labeler import review
from labeler.store import Project
from ui import errors, workers
from ui.app import ensure_app, save_screenshot, settle
from ui.help import ShortcutsList
from ui.main_window import MainWindow
from ui.settings import scratch_settings
from ui.theme import apply_theme

SIZES = ((1280, 800), (1024, 640))
THEMES = ("light", "dark")


def window_on(project: Path, theme: str, view: str = "curate") -> MainWindow:
    apply_theme(ensure_app(), theme)
    window = MainWindow()
    window.session.open(project)
    window.show_view(view)
    return window


def edited(window: MainWindow) -> None:
    """The printed figure, one box rejected (drawn only: struck through), zoomed in on it."""
    preview = window.views["curate"].preview
    figure = preview.figure
    x0, y0, x1, y1 = rejected = figure.key[1].bbox
    edits = figure.edits.with_edit("removed_boxes", rejected, True)
    key = tuple(e for e in figure.key if e.bbox != rejected)  # what the real edit stores
    preview.set_figure(replace(figure, edits=edits, key=key))
    window.views["curate"].key.load(list(key), None)
    preview.set_tool("removed_boxes")
    preview.toggle_original()
    settle()
    canvas = preview.canvas
    canvas.set_zoom(canvas.zoom() * 2.5)
    canvas.centerOn(QPointF((x0 + x1) / 2, (y0 + y1) / 2 + 30))


def decided(window: MainWindow) -> None:
    """The Decisions tab of the first item, with a trail by two reviewers (one undone)."""
    view = window.views["curate"]
    project = window.session.require_project()
    item_id = view.item.id
    if not review.history(project, item_id):  # the copy is drawn in every size and palette
        review.confirm_key(project, item_id, "Ada Lovelace")
        faint = "the periosteum leader is faint at 200 dpi"
        review.comment(project, item_id, faint, "Grace Hopper")
        slip = review.comment(project, item_id, "check the marrow label", "Grace Hopper")
        review.undo(project, slip.id, "Grace Hopper")
    view.decisions.reviewer.setText("Ada Lovelace")
    view.decisions.reviewer.editingFinished.emit()
    view.centre.setCurrentWidget(view.decisions)
    view.decisions.refresh()
    settle()


def main(project: Path, out: Path) -> None:
    errors.set_interactive(False)
    with scratch_settings(), tempfile.TemporaryDirectory() as scratch:
        moved = Path(scratch) / "project"
        shutil.copytree(project, moved)
        first = next((moved / "sources").glob("bone-*.pdf"))
        with Project.open(moved) as copy:
            copy.sources.relink(first)  # the copy's own file, which then goes away
        first.rename(first.with_name("moved-away.pdf"))
        reviewed = Path(scratch) / "reviewed"
        shutil.copytree(project, reviewed)
        for theme in THEMES:
            for width, height in SIZES:
                tag = f"{width}x{height}-{theme}"
                for name, folder, change in (
                    ("curate", project, None),
                    ("curate-edit", project, edited),
                    ("curate-relink", moved, None),
                    ("curate-decisions", reviewed, decided),
                    ("review", project, None),
                    ("leaderboard", project, None),
                ):
                    window = window_on(folder, theme, name.split("-")[0])
                    window.resize(width, height)
                    window.show()
                    settle()
                    while workers.busy():  # Review and the Leaderboard read on workers
                        settle()
                    if change is not None:
                        change(window)
                    print(save_screenshot(window, out / f"{name}-{tag}.png", (width, height)))
                    window.close()
            window = window_on(project, theme)
            dialog = ShortcutsList(window.shortcuts, window)
            dialog.show()
            settle()
            path = out / f"help-shortcuts-{theme}.png"
            dialog.grab().save(str(path), "PNG")
            print(path)
            dialog.close()
            window.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
