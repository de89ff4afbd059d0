"""Errors become dialogs, never tracebacks on a curator's screen.

:func:`show_error` is the one place an exception is shown: a ``LabelerError``
carries a message written for the user and is shown as is; anything else is a
bug, shown with a short summary and the traceback tucked under "Show Details"
(and printed to stderr for the bug report). :func:`install_excepthook` routes
uncaught exceptions in Qt slots here too.
"""

from __future__ import annotations

import sys
import traceback
from types import TracebackType

from PySide6.QtWidgets import QMessageBox, QWidget

from labeler.errors import LabelerError

_interactive = True


def set_interactive(value: bool) -> None:
    """Off for offscreen runs (screenshots): errors are printed, not shown modally."""
    global _interactive
    _interactive = value


def interactive() -> bool:
    """Whether dialogs may be shown (off for offscreen runs, which nobody answers)."""
    return _interactive


def show_error(exc: BaseException, parent: QWidget | None = None, title: str = "Labeler") -> None:
    """Tell the user about ``exc`` in a modal message box."""
    if not _interactive:
        print(f"labeler: error: {exc}", file=sys.stderr)
        return
    box = QMessageBox(parent)
    box.setWindowTitle(title)
    if isinstance(exc, LabelerError):
        box.setIcon(QMessageBox.Icon.Warning)
        box.setText(str(exc))
    else:
        box.setIcon(QMessageBox.Icon.Critical)
        box.setText(
            "Something went wrong inside Labeler. What was already saved is kept; "
            "the action that failed may be incomplete."
        )
        box.setInformativeText(f"{type(exc).__name__}: {exc}")
        details = getattr(exc, "__traceback_text__", None) or "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)
        )
        box.setDetailedText(details)
        print(details, file=sys.stderr)
    box.exec()


def install_excepthook(parent_of=lambda: None) -> None:
    """Show uncaught exceptions (from slots and event handlers) with :func:`show_error`."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, exc, tb)
            return
        show_error(exc, parent_of())

    sys.excepthook = hook
