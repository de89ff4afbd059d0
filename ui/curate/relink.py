"""The bar over the page viewer when a source's file has moved: say so and offer Relink….

The core decides whether the chosen file is the source
(:func:`labeler.curation.relink_source` compares the bytes); the bar only asks
for the file and reports the answer, so a wrong file is refused with the
core's message and nothing changes.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QWidget

from labeler.curation import relink_source
from labeler.errors import LabelerError
from labeler.store.records import Source
from ui.errors import show_error
from ui.session import Session


class RelinkBar(QWidget):
    """ "book.pdf is not at … any more [Relink…]"; hidden while the source's file is in place."""

    relinked = Signal(int)  # the source id, now pointing at its file again

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.source: Source | None = None
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.button = QPushButton("Relink…", self)
        self.button.setToolTip("Choose where the document is now; it must be the same file")
        self.button.clicked.connect(self.choose_file)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.message, 1)
        row.addWidget(self.button)
        self.setStyleSheet("RelinkBar { background: palette(alternate-base); }")
        self.hide()

    def show_for(self, source: Source | None, has_copy: bool = False) -> None:
        """Show the bar if ``source``'s original file is gone (hide it otherwise)."""
        self.source = source
        missing = source is not None and not Path(source.path).is_file()
        if missing:
            where = Path(source.path)
            fallback = (
                "showing the project's copy"
                if has_copy
                else "the project keeps no copy, so its pages cannot be shown"
            )
            self.message.setText(f"⚠ {where.name} has moved; {fallback}.")
            self.message.setToolTip(f"It was at {where}")
        self.setVisible(missing)

    def choose_file(self) -> None:
        """Ask for the moved file and relink to it."""
        if self.source is None:
            return
        name = Path(self.source.path).name
        path, _ = QFileDialog.getOpenFileName(
            self, f"Where is {name} now?", str(Path.home()), f"{name} and others (*)"
        )
        if path:
            self.relink_to(path)

    def relink_to(self, path: str) -> bool:
        """Relink the shown source to ``path`` through the core; a refusal becomes a dialog."""
        if self.source is None:
            return False
        try:
            source = relink_source(self.session.require_project(), self.source.id, path)
        except (LabelerError, OSError) as exc:
            show_error(exc, self)
            return False
        self.session.status_message.emit(f"Source {source.id} relinked to {source.path}")
        self.show_for(source)
        self.relinked.emit(source.id)
        return True
