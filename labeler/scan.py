"""Scan a whole book for labelled figures, so a curator accepts them instead of hunting.

For each page the figure proposals (:func:`~labeler.pdf.figures.propose_figures`) are kept when
they look labelled: short text lines around and inside the figure that the grouper reads as
labels or marker letters (not headings, captions, page numbers or body text), and for vector
figures the share of those labels with a leader line. A figure pasted as an image has its labels
burned in and is reported as a raster candidate with no label count: reading it needs OCR, which
a scan skips to stay fast (a 1,000-page book in minutes). The result is a list of
:class:`Candidate` records that :func:`add_candidates` (``labeler add-items``, Curate's
Scan document list) accepts in bulk.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from labeler.atomic import write_text
from labeler.errors import LabelerError
from labeler.pdf.geometry import Box

#: A vector candidate needs this many label lines to be listed.
MIN_LABELS = 2


@dataclass(frozen=True)
class Candidate:
    """One proposed labelled figure: where it is and the evidence it is a labelled figure."""

    page: int
    clip: Box
    kind: str  # "vector" (labels are text or outlines) or "raster" (labels in an image)
    labels: int | None  # label lines found (None: raster, not counted)
    with_leaders: int | None  # of those, how many have a leader line
    caption: str | None
    score: float


def scan_document(
    path: str | Path,
    *,
    pages: Iterable[int] | None = None,
    password: str | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> list[Candidate]:
    """Every labelled-figure candidate in ``pages`` (1-based; default all), in page order.

    ``on_page(done, total)`` is called after each page, for a progress bar.
    """
    from labeler.pdf.document import open_document

    doc = open_document(path, password=password)
    try:
        wanted = list(pages) if pages is not None else list(range(1, doc.page_count + 1))
        bad = [p for p in wanted if not 1 <= p <= doc.page_count]
        if bad:
            raise LabelerError(f"page {bad[0]} is outside 1-{doc.page_count}")
        found: list[Candidate] = []
        for done, page in enumerate(wanted, start=1):
            found += page_candidates(doc, page)
            if on_page is not None:
                on_page(done, len(wanted))
        return found
    finally:
        doc.close()  # type: ignore[no-untyped-call]  # pymupdf leaves close() unannotated


def page_candidates(doc: Any, page: int) -> list[Candidate]:
    """The labelled-figure candidates of one page."""
    from labeler.harvest import LeaderIndex, fragments_from_spans, group_labels
    from labeler.pdf.content import drawings, image_boxes, text_spans
    from labeler.pdf.figures import propose_figures
    from labeler.pdf.geometry import overlaps
    from labeler.pdf.upright import content_box

    target = doc[page - 1]
    proposals = propose_figures(doc, page)
    if not proposals:
        return []
    pictures = image_boxes(target)
    found = []
    for proposal in proposals:
        clip = proposal.clip  # on the page as displayed; its content in the page's own frame:
        area = content_box(target, clip)
        raster = any(overlaps(p, area) and _share(p, area) > 0.5 for p in pictures)
        spans = [s for s in text_spans(target, area) if s.plausible]
        groups = [
            g
            for g in group_labels(fragments_from_spans(spans), LeaderIndex(drawings(target, area)))
            if not g.excluded and len(g.text) <= 60  # a marker letter is a label too
        ]
        if raster and not groups:
            found.append(
                Candidate(page, clip, "raster", None, None, proposal.caption, proposal.score)
            )
        elif len(groups) >= MIN_LABELS:
            leaders = sum(1 for g in groups if g.leader is not None)
            found.append(
                Candidate(
                    page, clip, "vector", len(groups), leaders, proposal.caption, proposal.score
                )
            )
    return found


def _share(inner: Box, outer: Box) -> float:
    """How much of ``outer`` the box ``inner`` covers."""
    w = min(inner[2], outer[2]) - max(inner[0], outer[0])
    h = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = (outer[2] - outer[0]) * (outer[3] - outer[1])
    return max(0.0, w) * max(0.0, h) / area if area > 0 else 0.0


@dataclass(frozen=True)
class Outcome:
    """What became of one candidate: ``item_id`` if added, else why not."""

    candidate: Candidate
    item_id: str | None
    duplicate_of: str | None = None
    error: str | None = None


def add_candidates(
    project: Any,
    pdf: str | Path,
    candidates: Iterable[Candidate],
    *,
    password: str | None = None,
    on_each: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Add each candidate as a draft item (its caption in the notes), one by one.

    A figure that is already an item is skipped (and says which); a candidate that cannot be
    erased is reported and the rest still go in. ``on_each`` sees every outcome as it happens.
    """
    from labeler.curation import add_item_from_document
    from labeler.errors import DuplicateItem
    from labeler.store import NewItem

    outcomes = []
    for candidate in candidates:
        try:
            item = add_item_from_document(
                project,
                pdf,
                candidate.page,
                candidate.clip,
                item=NewItem(notes=candidate.caption or ""),
                password=password,
            )
        except DuplicateItem as exc:
            outcome = Outcome(candidate, None, duplicate_of=exc.existing_id)
        except LabelerError as exc:
            outcome = Outcome(candidate, None, error=str(exc))
        else:
            outcome = Outcome(candidate, item.id)
        outcomes.append(outcome)
        if on_each is not None:
            on_each(outcome)
    return outcomes


def write_candidates(path: str | Path, source: str | Path, candidates: list[Candidate]) -> None:
    """Save a scan as JSON (atomically): the document and its candidates."""
    data = {"pdf": str(Path(source).resolve()), "figures": [asdict(c) for c in candidates]}
    write_text(Path(path), json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def read_candidates(path: str | Path) -> tuple[Path, list[Candidate]]:
    """A saved scan: the document and the candidates (a clear error for a bad file)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        figures = [
            Candidate(
                page=int(f["page"]),
                clip=tuple(float(v) for v in f["clip"]),  # type: ignore[arg-type]
                kind=str(f["kind"]),
                labels=f.get("labels"),
                with_leaders=f.get("with_leaders"),
                caption=f.get("caption"),
                score=float(f.get("score", 0.0)),
            )
            for f in data["figures"]
        ]
        return Path(data["pdf"]), figures
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LabelerError(
            f"{path} is not a scan written by `labeler scan` ({exc}); run the scan again"
        ) from None
