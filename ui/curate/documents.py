"""The Curate view's bridge to the core's document functions.

Every function here touches PyMuPDF and therefore runs only as a job on
:func:`ui.workers.document_pool` (one thread). Opened documents are cached per
path in that thread, so scrolling through a 1,000-page book opens it once.
Nothing here decides anything: it calls ``labeler.pdf`` and ``labeler.erase``
and converts their output into what Qt shows (``QImage`` is safe to build off
the GUI thread; ``QPixmap`` is not, so the views convert).

Every function takes the ``password`` of an encrypted PDF (None for any other
document). The view asks the curator for it once and keeps it in memory only;
it travels with :class:`DocumentInfo` so that page and thumbnail renders can
reopen the document after the cache has closed it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtGui import QImage

from labeler.erase import EraseResult, erase_figure
from labeler.erase.edits import EraseEdits
from labeler.pdf.document import get_page, open_document, page_sizes, render_pixmap
from labeler.pdf.figures import propose_figures
from labeler.store.records import Box, KeyEntry
from ui.workers import TaskControl

MAX_OPEN = 4
KINDS = {".pdf": "pdf", ".svg": "svg", ".png": "image", ".jpg": "image", ".jpeg": "image"}

_open: OrderedDict[str, object] = OrderedDict()


@dataclass(frozen=True)
class DocumentInfo:
    """What the viewer needs to lay out a document without rendering it."""

    path: str
    kind: str
    page_sizes: list[tuple[float, float]]  # points, per page
    password: str | None = field(default=None, repr=False)  # never printed or logged


def _document(path: str, password: str | None):
    doc = _open.get(path)
    if doc is None:
        doc = open_document(path, password=password)
        _open[path] = doc
        while len(_open) > MAX_OPEN:
            _open.popitem(last=False)[1].close()
    _open.move_to_end(path)
    return doc


def describe(path: str, password: str | None = None) -> DocumentInfo:
    """Open ``path`` and measure its pages."""
    kind = KINDS.get(Path(path).suffix.lower(), "pdf")
    return DocumentInfo(path, kind, page_sizes(_document(path, password)), password)


def render(
    path: str, page: int, dpi: float, clip: Box | None = None, password: str | None = None
) -> QImage:
    """1-based ``page`` (or ``clip`` of it, in points) at ``dpi`` as an RGB ``QImage``."""
    import pymupdf

    target = get_page(_document(path, password), page)
    pix = render_pixmap(target, max(1, round(dpi)), None if clip is None else pymupdf.Rect(clip))
    image = QImage(pix.samples, pix.width, pix.height, pix.stride, QImage.Format.Format_RGB888)
    return image.copy()  # detach from pix's buffer, which dies with this frame


def propose(path: str, page: int, password: str | None = None) -> list[tuple[Box, str]]:
    """Figure regions the core proposes on ``page`` (points), best first, with a tooltip."""
    candidates = propose_figures(_document(path, password), page)
    return [
        (tuple(c.clip), c.caption or f"Proposed figure (score {c.score:.2f})") for c in candidates
    ]


def erase(
    path: str,
    page: int,
    clip: Box,
    dpi: int,
    edits: EraseEdits | None = None,
    password: str | None = None,
) -> EraseResult:
    """Erase ``clip`` with the curator's edits (the core's one entry point)."""
    return erase_figure(_document(path, password), page, clip, dpi, edits=edits)


def add_item(
    folder: str,
    path: str,
    page: int,
    clip: Box,
    edits: EraseEdits,
    key: list | None,
    password: str | None = None,
    control: TaskControl | None = None,
) -> str:
    """Store a region as a new item through the core; returns its id.

    Runs on the document pool with its own project connection (a ``Project``
    belongs to one thread). ``key`` is the curator's edited draft key, stored
    instead of the harvested one (in the same transaction) when given. A cancelled
    ``control`` stops it between steps (nothing stored if before the store).
    """
    from labeler.curation import add_item_from_document
    from labeler.store import NewItem, Project

    with Project.open(folder) as project:
        item = add_item_from_document(
            project,
            path,
            page,
            clip,
            item=NewItem(key=key),
            edits=edits,
            password=password,
            check=control.check if control is not None else None,
        )
        return item.id


def reerase_item(
    folder: str,
    item_id: str,
    edits: EraseEdits,
    password: str | None = None,
    expected_version: int | None = None,
) -> tuple[str, list[KeyEntry], int]:
    """Erase a stored item again with new edits (the core stores the images).

    Returns the id, the freshly harvested entries, from which the view updates
    the key for the box edits (:func:`labeler.curation.key_after_box_edits`), and
    the item's new version. ``expected_version`` is the version the view holds: if
    someone else changed the item since, nothing is stored (``EditConflict``).
    """
    from labeler.curation import reerase_item as reerase
    from labeler.store import Project

    with Project.open(folder) as project:
        item, harvested = reerase(
            project, item_id, edits, password=password, expected_version=expected_version
        )
    return item_id, harvested, item.version
