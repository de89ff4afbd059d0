"""What the window shows before any project is open: New, Open, or the demo.

A first start used to open on an empty Curate view with nothing saying what to do. This page
offers the three ways in; the demo is built by the same core function as ``labeler demo``, as a
job off the GUI thread (it erases eight figures and runs the offline baseline: seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from ui import workers
from ui.errors import show_error


def demo_folder() -> Path:
    """Where the GUI keeps its demo project (the user's data folder, not the working dir)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".labeler") / "demo"


def _build_demo(folder: str) -> str:
    from labeler.demo import build_demo_project
    from labeler.store.project import DB_NAME

    if not (Path(folder) / DB_NAME).exists():
        Path(folder).parent.mkdir(parents=True, exist_ok=True)
        build_demo_project(folder).close()
    return folder


class WelcomePage(QWidget):
    """Three buttons and a line on each: start a project, open one, or look at the demo."""

    def __init__(
        self,
        new_project: Callable[[], None],
        open_project: Callable[[], None],
        open_folder: Callable[[str], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._open_folder = open_folder
        title = QLabel(
            "<h2>Labeler</h2><p>Build diagram-labeling benchmarks from textbook figures:<br>"
            "erase the labels, keep the leader lines, score the models.</p>"
        )
        self.new_button = QPushButton("New project…")
        self.open_button = QPushButton("Open project…")
        self.demo_button = QPushButton("Open the demo (sample textbook, scored answers)")
        self.new_button.clicked.connect(new_project)
        self.open_button.clicked.connect(open_project)
        self.demo_button.clicked.connect(self.open_demo)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.setSpacing(10)
        for widget in (title, self.new_button, self.open_button, self.demo_button):
            widget.setFixedWidth(420)
            layout.addWidget(widget, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)

    def open_demo(self) -> None:
        """Build the demo project once (in a job), then open it."""
        self.demo_button.setEnabled(False)
        self.demo_button.setText("Building the demo: erasing 8 figures…")
        job = workers.Worker(_build_demo, str(demo_folder())).deliver_to(
            self, result=self._demo_ready, error=self._demo_failed
        )
        workers.start(job, workers.general_pool(), workers.PRIORITY_USER)

    def _demo_ready(self, folder: str) -> None:
        self._reset_demo_button()
        self._open_folder(folder)

    def _demo_failed(self, exc: BaseException) -> None:
        self._reset_demo_button()
        show_error(exc, self)

    def _reset_demo_button(self) -> None:
        self.demo_button.setEnabled(True)
        self.demo_button.setText("Open the demo (sample textbook, scored answers)")
