"""Build the demo project: real textbook figures and the sample textbook, curated and scored.

A fresh install has no API keys and no book; the demo still shows every view with real
work. It places openly licensed textbook figures (shipped in ``labeler/data/figures/``, with
``LICENSES.md``: source, licence, attribution) on generated textbook pages with a heading,
body text and a caption, one small PDF per figure so each source records its own licence and
attribution line; beside them go the synthetic figures of the sample textbook. Every figure
is erased through the same :func:`~labeler.curation.add_item_from_document` a curator uses,
the starter lexicon is loaded, and the offline ``baseline/subject-prior`` model answers
under :data:`DEMO_CONDITIONS`, so Review and Leaderboard show real scored results.

The real figures come first: a newcomer's first window shows a real figure erased and keyed.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from labeler.data import SAMPLE_BOOK as _SAMPLE_BOOK_NAME
from labeler.data import data_file
from labeler.prompts import ALL_CONDITIONS
from labeler.store import Item, NewItem, Project
from labeler.store.records import Box

SAMPLE_BOOK = data_file(_SAMPLE_BOOK_NAME)  # regenerate: python -m labeler.samples

#: The conditions the demo's baseline answers under (the one place to add one): the card's
#: four and the two slot conditions, so a newcomer sees the comparison (decision 0022).
DEMO_CONDITIONS: tuple[str, ...] = tuple(ALL_CONDITIONS)


OPENSTAX = (
    "Figures from OpenStax, *Anatomy and Physiology 2e* (Rice University), CC BY 4.0, openstax.org."
)


@dataclass(frozen=True)
class RealFigure:
    """One shipped figure, the textbook page it is placed on, and whose it is."""

    file: str  # in labeler/data/figures/
    subject: str
    chapter: str
    body: str
    caption: str
    licence: str
    attribution: str  # the line LICENSES.md says to show wherever the image is displayed


REAL_FIGURES = (
    RealFigure(
        "bone-cross-section.svg",
        "long bone",
        "Chapter 6  Bone Tissue and the Skeletal System",
        "A long bone is an organ made of several tissues. Its shaft, the diaphysis, is a hollow "
        "tube of compact bone around the medullary cavity; the epiphyses at either end hold "
        "spongy bone, and in a growing bone the epiphyseal plate lies between the two.",
        "Figure 6.3  Anatomy of a long bone.",
        "cc-by-3.0",
        '"Bone cross-section" by Pbroks13, CC BY 3.0, via Wikimedia Commons.',
    ),
    RealFigure(
        "cell-membrane-components.svg",
        "cell membrane",
        "Chapter 3  The Cellular Level of Organization",
        "The plasma membrane is a bilayer of phospholipids whose hydrophilic heads face the "
        "fluid on either side. Proteins float in it: some span the bilayer, some sit on one "
        "face, and carbohydrate chains on the outer face mark the cell.",
        "Figure 3.2  Components of the cell membrane.",
        "public-domain",
        '"Cell membrane detailed diagram" by Mariana Ruiz (LadyofHats), public domain.',
    ),
    RealFigure(
        "openstax-ap2e-0312_Animal_Cell_and_Components.jpg",
        "animal cell",
        "Chapter 3  The Cellular Level of Organization",
        "A prototypical human cell holds a nucleus and many organelles in its cytoplasm: "
        "mitochondria supply energy, the endoplasmic reticulum and Golgi apparatus make and "
        "ship proteins, and a cytoskeleton of filaments and microtubules gives it shape.",
        "Figure 3.12  Prototypical human cell.",
        "cc-by-4.0",
        OPENSTAX,
    ),
    RealFigure(
        "openstax-ap2e-1404_The_Structures_of_the_Ear.jpg",
        "human ear",
        "Chapter 14  The Somatosensory System",
        "Sound gathered by the auricle travels down the ear canal to the tympanic membrane. "
        "The three ossicles of the middle ear pass its vibration to the oval window, and the "
        "cochlea of the inner ear turns it into nerve signals.",
        "Figure 14.4  Structures of the ear.",
        "cc-by-4.0",
        OPENSTAX,
    ),
    RealFigure(
        "openstax-ap2e-2409_Tooth.jpg",
        "tooth",
        "Chapter 24  The Digestive System",
        "A tooth has a crown above the gum, a neck and a root set in bone. Enamel covers the "
        "crown and dentin forms the bulk of the tooth around the pulp cavity, which holds its "
        "blood vessels and nerves.",
        "Figure 24.9  The structure of a tooth.",
        "cc-by-4.0",
        OPENSTAX,
    ),
)


def figure_file(figure: RealFigure) -> Path:
    """The shipped file of ``figure``."""
    return data_file(f"figures/{figure.file}")


def build_demo_project(folder: str | Path) -> Project:
    """Create the demo project in ``folder`` (which must not be a project yet)."""
    from labeler.lexicon import load_starter
    from labeler.providers.config import baseline_model
    from labeler.runs.runner import RunRequest, run
    from labeler.samples.real_pages import write_figure_page

    folder = Path(folder)
    project = Project.create(
        folder, name="Demo: real and sample textbook figures", id_prefix="DEMO"
    )
    sources = folder / "sources"
    sources.mkdir(exist_ok=True)
    project.lexicon.add_many((r.canonical, r.synonym, r.relation) for r in load_starter().rows())
    for n, figure in enumerate(REAL_FIGURES):
        book = sources / f"{Path(figure.file).stem}.pdf"
        text = f"{figure.caption} Credit: {figure.attribution}"
        clip = write_figure_page(figure_file(figure), book, figure.chapter, figure.body, text)
        item = _add(project, book, 1, clip, figure.subject, n, {})
        assert item.source_id is not None
        project.sources.set_licence(item.source_id, figure.licence, figure.attribution)
    _add_sample_book(project, sources)
    run(project, RunRequest([baseline_model()], DEMO_CONDITIONS))
    return project


def _add_sample_book(project: Project, sources: Path) -> None:
    """The synthetic textbook's figures (ours, so public domain): one of each erasure path."""
    from labeler.samples.book import layout

    book = sources / SAMPLE_BOOK.name
    shutil.copyfile(SAMPLE_BOOK, book)
    for n, figure in enumerate(layout()):
        item = _add(
            project,
            book,
            figure.page,
            figure.clip,
            figure.spec.subject,
            n,
            figure.spec.marker_names,
        )
    assert item.source_id is not None
    project.sources.set_licence(
        item.source_id, "public-domain", "Sample textbook generated by Labeler, public domain."
    )


def _add(
    project: Project,
    book: Path,
    page: int,
    clip: Box,
    subject: str,
    n: int,
    marker_names: Mapping[str, str],
) -> Item:
    """Erase one figure into a ready item (the curator's own path)."""
    from labeler.curation import add_item_from_document
    from labeler.readiness import update_item

    item = add_item_from_document(
        project,
        book,
        page,
        clip,
        item=NewItem(subject=subject, tier="core" if n % 2 == 0 else "extended"),
        marker_names=marker_names,
    )
    update_item(project, item.id, status="ready")
    return item
