"""Desktop commands: ``labeler gui`` and ``labeler demo``.

This is the only core module allowed to import ``ui`` (see pyproject's
import-linter contract), and it does so inside the functions, so the rest of
the CLI runs without Qt installed or a display. Before Qt starts, ``_qt_check`` makes sure
it can open a window, because Qt's own failure aborts the process.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from labeler.cli._qt_check import check_window_platform

VIEW_NAMES = ("curate", "review", "leaderboard", "lexicon", "run")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``gui`` and ``demo``."""
    p = sub.add_parser("gui", help="open the desktop application")
    p.add_argument("dir", nargs="?", help="project folder to open")
    p.add_argument("--view", choices=VIEW_NAMES, help="view to show first")
    p.add_argument("--screenshot", metavar="PATH", help="render the window to PNG and exit")
    p.set_defaults(func=_gui)

    p = sub.add_parser("demo", help="build the demo project and open it in the application")
    p.add_argument(
        "--project",
        default="labeler-demo",
        metavar="DIR",
        help="demo project folder (default: %(default)s)",
    )
    p.add_argument(
        "--screenshot-dir", metavar="DIR", help="render every view to DIR/<view>.png and exit"
    )
    p.set_defaults(func=_demo)


def _gui(args: argparse.Namespace) -> int:
    check_window_platform(screenshot=args.screenshot is not None)
    from ui.app import run_app

    return run_app(args.dir, view=args.view, screenshot=args.screenshot)


def _demo(args: argparse.Namespace) -> int:
    check_window_platform(screenshot=args.screenshot_dir is not None)  # before the slow build
    from ui.app import run_app

    folder = Path(args.project)
    _build_demo(folder)
    if args.screenshot_dir is None:
        return run_app(folder, view="curate")
    out = Path(args.screenshot_dir)
    for view in VIEW_NAMES:
        run_app(folder, view=view, screenshot=out / f"{view}.png")
        print(out / f"{view}.png")
    return 0


def _build_demo(folder: Path) -> None:
    """Build the demo project unless ``folder`` already holds one (then it is reused)."""
    from labeler.demo import build_demo_project
    from labeler.store.project import DB_NAME

    if not (folder / DB_NAME).exists():
        build_demo_project(folder).close()
