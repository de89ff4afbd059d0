"""The Help menu: the README's sections, and the keyboard shortcuts in force.

The README is the manual, so Help links to its sections rather than keeping a
second text that would drift. A link goes to the documentation URL in the
package's metadata (``[project.urls]`` Documentation, else Homepage) when
there is one, else to the README on this machine: the checkout's file, or the
copy every installed wheel carries in its metadata, written out once to the
cache folder. Each section is addressed by the anchor GitHub and most Markdown
viewers give a heading (:func:`anchor`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from labeler.atomic import write_text
from ui.shortcuts import ShortcutRegistry, area_of

CHECKOUT_README = Path(__file__).resolve().parents[1] / "README.md"
DOC_URL_LABELS = ("documentation", "docs", "homepage", "home", "source")


@dataclass(frozen=True)
class Section:
    """One ``##`` heading of the README and the URL that opens it."""

    title: str
    url: QUrl


def anchor(title: str) -> str:
    """A Markdown heading's anchor, as GitHub makes it ("A curator's day" -> a-curators-day)."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def headings(readme: str) -> list[str]:
    """The README's second-level headings, in order (code blocks skipped)."""
    found, fenced = [], False
    for line in readme.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            found.append(line[3:].strip())
    return found


def docs_url(urls: Mapping[str, str]) -> str | None:
    """The documentation URL among the project's ``Project-URL`` entries (label -> URL)."""
    by_label = {label.strip().lower(): url.strip() for label, url in urls.items()}
    return next((by_label[x] for x in DOC_URL_LABELS if x in by_label), None)


def project_urls() -> dict[str, str]:
    """``[project.urls]`` of the installed package (label -> URL; empty when there are none)."""
    try:
        entries = metadata.metadata("labeler").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return {}
    return dict(tuple(p.strip() for p in e.split(",", 1)) for e in entries if "," in e)


def readme_text() -> str:
    """The README: the checkout's, else the one in the installed package's metadata."""
    if CHECKOUT_README.is_file():
        return CHECKOUT_README.read_text(encoding="utf-8")
    try:
        return metadata.metadata("labeler").get("Description") or ""
    except metadata.PackageNotFoundError:
        return ""


def local_readme(text: str) -> Path:
    """A README file to open: the checkout's, or the metadata's copy written to the cache."""
    if CHECKOUT_README.is_file():
        return CHECKOUT_README
    folder = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation))
    path = folder / "README.md"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        folder.mkdir(parents=True, exist_ok=True)
        write_text(path, text)
    return path


def section_url(title: str, base: str | None, readme: Path | None) -> QUrl:
    """The URL of section ``title``: under the docs URL ``base``, else in the local ``readme``."""
    url = QUrl(base) if base else QUrl.fromLocalFile(str(readme))
    url.setFragment(anchor(title))
    return url


def sections(urls: Mapping[str, str] | None = None, readme: str | None = None) -> list[Section]:
    """Every README section with its URL (the metadata's docs URL first, else the file)."""
    text = readme_text() if readme is None else readme
    base = docs_url(project_urls() if urls is None else urls)
    path = None if base else local_readme(text)
    return [Section(t, section_url(t, base, path)) for t in headings(text)]


def fill_menu(menu: QMenu, registry: ShortcutRegistry, parent: QWidget) -> list[QAction]:
    """Add the README sections and "Keyboard shortcuts" to ``menu``; the section actions.

    Each section action carries its URL as ``data()`` and opens it with
    :class:`QDesktopServices` (the desktop's browser or Markdown viewer).
    """
    actions = []
    for section in sections():
        action = menu.addAction(f"README: {section.title}")
        action.setData(section.url)
        action.triggered.connect(lambda _=False, u=section.url: QDesktopServices.openUrl(u))
        actions.append(action)
    menu.addSeparator()
    shortcuts = menu.addAction("Keyboard &shortcuts")
    shortcuts.triggered.connect(lambda: ShortcutsList(registry, parent).exec())
    return actions


class ShortcutsList(QDialog):
    """Every action and the key it has now (the user's binding, else the default), to read.

    Edit ▸ Keyboard shortcuts… changes them; this is the reference card.
    """

    def __init__(self, registry: ShortcutRegistry, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(560, 560)
        rows = [
            (area_of(i), registry.action(i).text().replace("&", "").rstrip(".…"), registry.key(i))
            for i in registry.ids()
            if registry.key(i)
        ]
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Where", "Action", "Shortcut"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(value)
                if column == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, item)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)

    def rows(self) -> list[tuple[str, str, str]]:
        """(where, action, key) as listed."""
        return [
            tuple(self.table.item(r, c).text() for c in range(3))  # type: ignore[misc]
            for r in range(self.table.rowCount())
        ]
