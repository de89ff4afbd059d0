"""Propose figure regions on a page so the curator can accept one instead of dragging.

A figure is a cluster of vector drawings and images; the short text around it
(labels) belongs to it, and a nearby "Figure N" / "Fig. N" caption is a strong
hint that the cluster is a real figure (and names it). Body text paragraphs are
wide lines and are never pulled into a cluster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf

from labeler.pdf.content import drawings, image_boxes, text_spans
from labeler.pdf.document import get_page
from labeler.pdf.geometry import Box, as_box, grown, merge_overlapping, overlaps, union
from labeler.pdf.limits import guarded
from labeler.pdf.upright import visible_box

CAPTION = re.compile(r"^\s*(fig\.?|figure)\s*\d+", re.IGNORECASE)
JOIN_GAP = 12.0  # points: drawings closer than this are one figure
LABEL_REACH = 30.0  # points: short text this close to a figure is its label
CAPTION_REACH = 60.0  # points: a caption this close above/below names the figure
MIN_AREA = 0.01  # share of the page a figure must cover


@dataclass(frozen=True)
class FigureCandidate:
    """A proposed figure: its clip (points), a score in [0, 1] and its caption, if any."""

    clip: Box
    score: float
    caption: str | None


def _captions(page: pymupdf.Page) -> list[tuple[Box, str]]:
    found = []
    for block in page.get_text("blocks"):
        text = " ".join(str(block[4]).split())
        if CAPTION.match(text):
            found.append((tuple(block[:4]), text))
    return found


@guarded("finding its figures")
def propose_figures(doc: pymupdf.Document, page: int) -> list[FigureCandidate]:
    """Figure candidates on 1-based ``page``, best first (ties in reading order)."""
    target = get_page(doc, page)
    bounds = target.rect * target.derotation_matrix  # content boxes ignore a /Rotate
    area = bounds.width * bounds.height
    wide = 0.6 * bounds.width
    shapes = [
        d.rect
        for d in drawings(target)
        if (d.rect[2] - d.rect[0]) * (d.rect[3] - d.rect[1]) < 0.9 * area  # not a page background
    ]
    pictures = image_boxes(target)
    clusters = merge_overlapping(grown(b, JOIN_GAP / 2) for b in shapes + pictures)
    clusters = [grown(c, -JOIN_GAP / 2) for c in clusters]
    captions = _captions(target)
    caption_boxes = [box for box, _ in captions]
    short_text = [
        s.bbox
        for s in text_spans(target)
        if s.bbox[2] - s.bbox[0] < wide and not any(overlaps(s.bbox, c) for c in caption_boxes)
    ]
    candidates = []
    for cluster in clusters:
        members = [b for b in shapes + pictures if overlaps(b, cluster)]
        box = union([cluster, *(t for t in short_text if overlaps(t, grown(cluster, LABEL_REACH)))])
        if (box[2] - box[0]) * (box[3] - box[1]) < MIN_AREA * area:
            continue
        caption = _nearest_caption(box, captions)
        has_image = any(overlaps(p, cluster) for p in pictures)
        richness = min(1.0, len(members) / 10) if not has_image else 1.0
        score = round(0.5 * richness + (0.5 if caption else 0.0), 3)
        # a clip is on the page as displayed (see ``labeler.pdf.upright``)
        clip = as_box(
            round(v, 2) for v in visible_box(target, pymupdf.Rect(grown(box, 4)) & bounds)
        )
        candidates.append(FigureCandidate(clip, score, caption))
    return sorted(candidates, key=lambda c: (-c.score, c.clip[1], c.clip[0]))


def _nearest_caption(box: Box, captions: list[tuple[Box, str]]) -> str | None:
    best: tuple[float, str] | None = None
    for cap, text in captions:
        if cap[2] < box[0] or cap[0] > box[2]:  # no horizontal overlap: another column
            continue
        gap = max(cap[1] - box[3], box[1] - cap[3], 0.0)
        if gap <= CAPTION_REACH and (best is None or gap < best[0]):
            best = (gap, text)
    return best[1] if best else None
