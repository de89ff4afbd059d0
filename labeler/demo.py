"""Build the demo project: the sample textbook, curated, with scored baseline answers.

A fresh install has no API keys and no figures; the demo still shows every
view with real data. It erases each figure of the sample textbook through the
same :func:`~labeler.curation.add_item_from_document` a curator uses, loads
the starter lexicon, and runs the offline ``baseline/subject-prior`` model
under all four conditions, so Review and Leaderboard show real scored results.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from labeler.data import SAMPLE_BOOK as _SAMPLE_BOOK_NAME
from labeler.data import data_file
from labeler.store import NewItem, Project

SAMPLE_BOOK = data_file(_SAMPLE_BOOK_NAME)  # regenerate: python -m labeler.samples


def build_demo_project(folder: str | Path) -> Project:
    """Create the demo project in ``folder`` (which must not be a project yet)."""
    from labeler.curation import add_item_from_document
    from labeler.lexicon import load_starter
    from labeler.prompts import ALL_CONDITIONS
    from labeler.providers.config import baseline_model
    from labeler.readiness import update_item
    from labeler.runs.runner import RunRequest, run
    from labeler.samples.book import layout

    folder = Path(folder)
    project = Project.create(folder, name="Demo: sample biology textbook", id_prefix="DEMO")
    book = folder / "sources" / SAMPLE_BOOK.name
    book.parent.mkdir(exist_ok=True)
    shutil.copyfile(SAMPLE_BOOK, book)
    placed = layout()
    project.lexicon.add_many((r.canonical, r.synonym, r.relation) for r in load_starter().rows())
    for n, figure in enumerate(placed):
        item = add_item_from_document(
            project,
            book,
            figure.page,
            figure.clip,
            item=NewItem(subject=figure.spec.subject, tier="core" if n % 2 == 0 else "extended"),
            marker_names=figure.spec.marker_names,
        )
        update_item(project, item.id, status="ready")
    run(project, RunRequest([baseline_model()], ALL_CONDITIONS))  # slots too (decision 0022)
    return project
