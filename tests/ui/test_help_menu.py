"""Help links the README's sections (the URL built, no browser) and lists the shortcuts."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QKeySequence

from ui.help import CHECKOUT_README, ShortcutsList, anchor, headings, sections
from ui.main_window import MainWindow

README = Path(__file__).resolve().parents[2] / "README.md"


def test_anchors_are_the_ones_github_gives_headings():
    assert anchor("Set up (fresh machine)") == "set-up-fresh-machine"
    assert (
        anchor("A curator's day, from the command line") == "a-curators-day-from-the-command-line"
    )
    assert anchor("Qt's system libraries (Linux)") == "qts-system-libraries-linux"
    assert anchor("Dependencies and why") == "dependencies-and-why"


def test_headings_skip_code_blocks():
    text = "# T\n\n## One\n\n```sh\n## not a heading\n```\n\n## Two, too\n### sub\n"
    assert headings(text) == ["One", "Two, too"]


def test_the_help_menu_opens_each_readme_section_of_this_checkout(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.remember_state = False
    titles = [a.text() for a in window.help_menu.actions() if a.text()]
    assert (
        "README: Running models" in titles
        and "README: A curator's day, from the command line" in titles
    )
    assert titles[-1] == "Keyboard &shortcuts"
    assert CHECKOUT_README == README  # run from the checkout: its own README
    urls = {a.text(): a.data() for a in window.help_actions}
    running = urls["README: Running models"]
    assert isinstance(running, QUrl) and running.isLocalFile()
    assert Path(running.toLocalFile()) == README and running.fragment() == "running-models"
    # every section of the README is there, once
    expected = [line[3:] for line in README.read_text().splitlines() if line.startswith("## ")]
    assert [t.removeprefix("README: ") for t in urls] == expected


def test_a_docs_url_in_the_project_metadata_wins_over_the_file():
    text = "# Labeler\n\n## Running models\n\ntext\n"
    urls = {"Homepage": "https://example.org/labeler", "Documentation": "https://docs.example.org/"}
    [section] = sections(urls=urls, readme=text)
    assert section.url.toString() == "https://docs.example.org/#running-models"
    [section] = sections(urls={"Homepage": "https://example.org/labeler"}, readme=text)
    assert section.url.toString() == "https://example.org/labeler#running-models"


def test_the_shortcuts_list_shows_the_keys_in_force(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.remember_state = False
    window.shortcuts.set_keys({"curate.next_page": "Ctrl+Shift+J"})
    dialog = ShortcutsList(window.shortcuts, window)
    qtbot.addWidget(dialog)
    rows = dialog.rows()
    assert ("Curate", "Next page", "Ctrl+Shift+J") in rows
    assert ("File", "Quit", QKeySequence("Ctrl+Q").toString()) in rows
    assert ("Curate", "Tool: Reject box", "R") in rows
    assert all(key for _, _, key in rows)  # unbound actions are not listed
    window.shortcuts.set_keys({"curate.next_page": window.shortcuts.default("curate.next_page")})
