"""Application start-up: one QApplication, the theme, the error hook, the window.

``run_app`` is what ``labeler gui`` and ``labeler demo`` call. With
``screenshot`` it renders the window offscreen (1280×800 and the light palette
unless told otherwise: the docs show 1024×640 and dark too) to a PNG once
background rendering has settled, and returns instead of entering the event
loop, so screenshots are reproducible from the command line.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from ui import errors, workers
from ui.errors import install_excepthook
from ui.main_window import MainWindow
from ui.settings import APPLICATION, ORGANIZATION, app_settings, scratch_settings
from ui.theme import apply_theme

SCREENSHOT_SIZE = (1280, 800)


def ensure_app() -> QApplication:
    """The QApplication (created once), styled with the user's palette."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        QCoreApplication.setOrganizationName(ORGANIZATION)
        QCoreApplication.setApplicationName(APPLICATION)
        app = QApplication(sys.argv[:1])
    apply_theme(app, str(app_settings().value("ui/theme", "light")))
    return app


def settle(timeout: float = 20.0) -> None:
    """Process events until no worker is running (or ``timeout`` seconds passed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()
        if not workers.busy():
            QCoreApplication.processEvents()
            if not workers.busy():
                return
        time.sleep(0.01)


def save_screenshot(
    window: MainWindow, path: str | Path, size: tuple[int, int] = SCREENSHOT_SIZE
) -> Path:
    """Render ``window`` at ``size`` to a PNG at ``path`` and return the path."""
    window.resize(*size)
    window.show()
    settle()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(path), "PNG"):
        raise OSError(f"could not write the screenshot {path}")
    return path


def run_app(
    project_dir: str | Path | None = None,
    view: str | None = None,
    screenshot: str | Path | None = None,
    size: tuple[int, int] = SCREENSHOT_SIZE,
    theme: str = "light",
) -> int:
    """Open the main window (on ``project_dir`` and ``view`` if given) and run it.

    With ``screenshot`` the window is drawn offscreen at ``size`` in the ``theme``
    palette to that PNG and the function returns 0 without waiting for the user.
    """
    if screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        # Default layout and palette, not the user's remembered ones (which stay untouched);
        # errors go to stderr because nobody could close a dialog offscreen.
        with scratch_settings():
            apply_theme(ensure_app(), theme)
            window = MainWindow()
            errors.set_interactive(False)
            try:
                _open(window, project_dir, view)
                save_screenshot(window, screenshot, size)
            finally:
                window.close()
                window.deleteLater()
                errors.set_interactive(True)
        return 0
    app = ensure_app()
    window = MainWindow()
    install_excepthook(lambda: window)
    _open(window, project_dir, view)
    window.show()
    return app.exec()


def _open(window: MainWindow, project_dir: str | Path | None, view: str | None) -> None:
    if project_dir is not None:
        window.session.open(project_dir)  # a bad folder is a LabelerError for the caller
    if view is not None:
        window.show_view(view)
