"""One figure through harvest and erasure (the body of ``erase_figure``).

Harvest first, on the untouched page: vector text, outline glyphs and raster
text all become line fragments, the curator's keep/add/remove boxes are
applied, and the grouper turns fragments into labels. Erasure then works on a
one-page copy, per path, and the renders and the vector question PDF are made
from that copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pymupdf

from labeler.erase.edits import EraseEdits
from labeler.erase.mask import Stroke, stroke_mask
from labeler.erase.outlines import erase_outlines, glyph_lines
from labeler.erase.raster_path import (
    Hit,
    Raster,
    hits_in,
    name_outline_lines,
    ocr_fragments,
    read_all,
    tilted_fragments,
)
from labeler.erase.rerender import redraw
from labeler.erase.resample import enlarged_images
from labeler.erase.result import EraseResult, HarvestedLabel, Image
from labeler.erase.rotated import PAD, Quad, erase_quads, quad_hull
from labeler.erase.vector_text import erase_vector_text
from labeler.errors import DocumentError
from labeler.harvest import Fragment, LabelGroup, LeaderIndex, fragments_from_spans, group_labels
from labeler.harvest.anchors import Leader
from labeler.harvest.group import join_lines
from labeler.pdf.content import Drawing, TextSpan, image_boxes, text_spans
from labeler.pdf.content import drawings as page_drawings
from labeler.pdf.document import render_pixmap
from labeler.pdf.geometry import (
    Box,
    PixelBox,
    as_box,
    box_area,
    first_containing,
    grown,
    intersection,
    merge_overlapping,
    rect_box,
)
from labeler.pdf.limits import check_clip, check_page_boxes, check_pixels
from labeler.pdf.pagebox import set_cropbox

PATCH_JOIN = 24.0  # points: changed regions closer than this are re-rendered together
#: × line height: a raster leader ending closer to its line than this is a bracket tick.
MIN_LEADER_REACH = 1.25
METHOD_NAMES = {"vector": "vector-text", "outline": "outline", "ocr": "ocr"}


@dataclass
class Figure:
    """The clip being erased, its page content, and (after ``harvest``) its labels."""

    source: pymupdf.Page
    area: pymupdf.Rect
    dpi: int
    spans: list[TextSpan]
    drawings: list[Drawing]
    images: list[Box]
    groups: list[LabelGroup] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    answer: pymupdf.Pixmap | None = None
    raster: Raster | None = None
    hits: list[Hit] | None = None
    quads: dict[PixelBox, Quad] = field(default_factory=dict)  # tilted lines, by their box

    def _raster(self) -> Raster:
        if self.raster is None:
            self.raster = Raster.from_pixmap(self._answer(), self.dpi)
        return self.raster

    def _answer(self) -> pymupdf.Pixmap:
        """The render of the original clip (made by :meth:`harvest`)."""
        assert self.answer is not None, "harvest() renders the clip first"
        return self.answer

    def _hits(self) -> list[Hit]:
        """OCR of the original clip render, done at most once and only when needed."""
        if self.hits is None:
            raster = self._raster()
            infos = self.source.get_image_info() if self.images else []
            enlarged = enlarged_images(infos, raster.zoom, raster.origin, raster.rgb.shape)
            self.hits, self.quads = read_all(raster, enlarged)
        return self.hits

    def harvest(self, keep: Sequence[Box], extra: Sequence[Box], removed: Sequence[Box]) -> None:
        """Find every label in the clip and decide what is erased, kept or keyed."""
        # annotations are a reader's marks, not the figure (and are not copied for erasing)
        self.answer = render_pixmap(self.source, self.dpi, self.area, annots=False)
        clip = rect_box(self.area)
        leaders = LeaderIndex(self.drawings)
        fragments = fragments_from_spans([s for s in self.spans if s.plausible])
        outline = glyph_lines(self.drawings, clip)
        if outline:
            raster = self._raster()
            # OCR also reads the vector text; those words never name a glyph cluster (on a
            # figure placed small, a leader's arrowhead beside a word is glyph-sized)
            vector = [raster.to_pixels(f.bbox) for f in fragments]
            unread = [h for h in self._hits() if first_containing(h[1], vector) is None]
            fragments += name_outline_lines(raster, unread, outline)
        regions = list(self.images) + [s.bbox for s in self.spans if not s.plausible]
        if regions:
            raster = self._raster()
            taken = [raster.to_pixels(f.bbox) for f in fragments]
            pixels = [raster.to_pixels(r) for r in regions]
            hits = [
                h
                for h in self._hits()
                if first_containing(h[1], pixels) and first_containing(h[1], taken) is None
            ]
            fragments += self._raster_lines(hits)
        loose = []
        forced: dict[Box, list[Fragment]] = {box: [] for box in extra}
        for fragment in fragments:
            if first_containing(fragment.bbox, keep):
                self.kept.append(fragment.text)
            elif (box := first_containing(fragment.bbox, extra)) is not None:
                forced[box].append(fragment)
            else:
                loose.append(fragment)
        for group in group_labels(loose, leaders):
            if group.excluded or first_containing(group.bbox, removed):
                self.kept.append(group.text)
            else:
                self.groups.append(group)
        # the curator's own boxes are labels whatever the heuristics say
        for box, lines in forced.items():
            self.groups.append(self._forced_group(box, lines or self._read_box(box), leaders))
        self.groups.sort(key=lambda g: (g.bbox[1], g.bbox[0]))

    def _raster_lines(self, hits: list[Hit]) -> list[Fragment]:
        """The OCR lines of the clip's images, with the labels the detector missed added.

        Leader lines that end at no line are the evidence of a missed label: the rows of
        glyphs beside their free ends are read again (``unread``), and what is read
        becomes a line like any other, grouped, keyed and erased with them.
        """
        from labeler.erase.raster import find_raster_anchors, find_raster_leaders
        from labeler.erase.unread import missed_hits

        raster = self._raster()
        lines = self._lines(hits)
        if not lines:
            return lines
        ends, orphans = find_raster_leaders(raster.rgb, [raster.to_pixels(f.bbox) for f in lines])
        missed = missed_hits(raster.rgb, orphans, [h[1] for h in self._hits()])
        if missed:
            self._hits().extend(missed)
            lines = self._lines(hits + missed)
            ends = find_raster_anchors(raster.rgb, [raster.to_pixels(f.bbox) for f in lines])
        return self._with_raster_leaders(lines, ends)

    def _lines(self, hits: list[Hit]) -> list[Fragment]:
        raster = self._raster()
        upright = [h for h in hits if h[1] not in self.quads]
        tilted = [h for h in hits if h[1] in self.quads]
        return ocr_fragments(raster, upright) + tilted_fragments(raster, tilted, self.quads)

    def _with_raster_leaders(
        self, lines: list[Fragment], found: list[tuple[float, float] | None]
    ) -> list[Fragment]:
        """Mark each OCR line whose own leader line starts at it (``found`` in the pixels).

        The grouper then keeps two tightly stacked labels apart when each has a
        leader, exactly as it does with vector leaders. A "leader" ending closer to the
        line than ``MIN_LEADER_REACH`` line heights is the tick of a bracket under the
        label ("membrane" over the External-ear bracket, placed small), not a leader of
        its own: it must not split a two-line label (the label's anchor is still looked
        for after grouping).
        """
        raster = self._raster()
        for index, (line, end) in enumerate(zip(lines, found, strict=True)):
            if end is not None and _reach(line.bbox, raster.point(end)) >= MIN_LEADER_REACH * (
                line.bbox[3] - line.bbox[1]
            ):
                line.leader = Leader(ident=-1 - index, points=(raster.point(end),))
        return lines

    def _read_box(self, box: Box) -> list[Fragment]:
        """A curator's box over text we did not find: OCR it and erase it as raster."""
        raster = self._raster()
        pixels = raster.to_pixels(box)
        text = " ".join(t for t, _ in hits_in(self._hits(), pixels))
        return [Fragment(text=text, bbox=box, size=box[3] - box[1], kind="ocr", parts=[pixels])]

    @staticmethod
    def _forced_group(box: Box, lines: list[Fragment], leaders: LeaderIndex) -> LabelGroup:
        group = LabelGroup(sorted(lines, key=lambda f: (f.bbox[1], f.bbox[0])))
        group.text = join_lines([f.text for f in group.lines])
        group.leader = leaders.leader_at(group.bbox, 0.9 * group.lines[0].size)
        if group.leader is not None:
            group.anchor = LeaderIndex.anchor(group.leader, group.bbox)
        return group

    def erase(
        self, doc: pymupdf.Document, page: int, strokes: Sequence[Stroke] = ()
    ) -> EraseResult:
        """Erase the harvested labels, then the painted ``strokes``, on a copy of the page.

        Returns the renders, the cropped question PDF and the key, packaged.
        """
        work = pymupdf.open()
        work.insert_pdf(
            doc, from_page=page - 1, to_page=page - 1, links=False, annots=False, widgets=False
        )
        wpage = work[0]
        erased = [g for g in self.groups if g.marker is None]
        parts: dict[str, list[Any]] = {"vector": [], "outline": [], "ocr": []}
        for group in erased:
            for line in group.lines:
                parts[line.kind].extend(line.parts)
        erase_vector_text(wpage, parts["vector"])
        erase_outlines(wpage, parts["outline"])
        # redaction changes nothing outside the erased lines' boxes (+1 pt for outlines)
        changed = [grown(line.bbox, 1.5) for g in erased for line in g.lines if line.kind != "ocr"]
        question = self._render_question(wpage, changed)
        anchors = self._raster_anchors([g for g in erased if g.kind == "ocr"])
        # The question PDF is the erased page cropped to the clip: still all vector.
        set_cropbox(wpage, rect_box(self.area))
        # pixel erasers return new arrays; the pixmap's view lives only as long as ``question``
        rgb: np.ndarray | None = None
        if parts["ocr"]:
            # a tilted line is erased inside its quad, an upright one by the line-keeping eraser
            boxes = [p for p in parts["ocr"] if not isinstance(p[0], tuple)]
            quads = [p for p in parts["ocr"] if isinstance(p[0], tuple)]
            rgb = Raster.from_pixmap(question, self.dpi).rgb
            if boxes:
                rgb = _erase_pixels(rgb, boxes)
            if quads:
                rgb = erase_quads(rgb, quads)
            shape = rgb.shape
            self._patch_pdf(wpage, rgb, boxes + [quad_hull(q, shape, PAD + 1) for q in quads])
        if strokes:
            before = rgb if rgb is not None else Raster.from_pixmap(question, self.dpi).rgb
            rgb = self._erase_strokes(wpage, before, strokes)
        labels = [
            HarvestedLabel(
                text="" if g.marker else g.text,
                bbox=as_box(round(v, 2) for v in g.bbox),
                kind=g.kind,
                anchor=g.anchor or anchors.get(id(g)),
                marker=g.marker,
            )
            for g in self.groups
        ]
        methods = [METHOD_NAMES[k] for k in ("vector", "outline", "ocr") if parts[k]]
        methods += ["mask"] * bool(strokes)
        return EraseResult(
            question=Image(question if rgb is None else rgb),
            answer=Image(self._answer()),
            question_document=work,
            labels=labels,
            method="+".join(methods) or "none",
            clip=rect_box(self.area),
            dpi=self.dpi,
            kept=[t for t in self.kept if t],
        )

    def _render_question(self, wpage: pymupdf.Page, changed: Sequence[Box]) -> pymupdf.Pixmap:
        """The erased clip's render: the answer render with the changed regions redrawn.

        Redaction only alters pixels inside the erased labels' boxes, and both
        renders share one device pixel grid (same zoom), so redrawing just
        those regions gives the full render at a fraction of its cost.
        """
        # neighbouring labels (a column of them) share one redraw: each redraw
        # walks the whole display list, so fewer, slightly larger regions win
        clip = rect_box(self.area)
        near = merge_overlapping(grown(r, PATCH_JOIN / 2) for r in changed)
        regions = [r for r in (intersection(grown(r, -PATCH_JOIN / 2), clip) for r in near) if r]
        if sum(box_area(r) for r in regions) > 0.5 * box_area(clip):
            regions = [clip]
        answer = self._answer()
        if not regions:
            return answer
        raster = self._raster()
        boxes = [raster.to_pixels(r) for r in regions]
        return redraw(wpage.get_displaylist(), answer, raster.zoom, boxes)

    def _erase_strokes(
        self, wpage: pymupdf.Page, rgb: np.ndarray, strokes: Sequence[Stroke]
    ) -> np.ndarray:
        """Paint the curator's strokes over ``rgb`` and patch the question PDF to match.

        Nothing under a stroke is protected: the curator painted it on purpose.
        """
        from labeler.erase.raster import erase_mask

        raster = self._raster()
        mask = stroke_mask(strokes, rgb.shape, raster.to_pixel_point, raster.zoom)
        rgb = erase_mask(np.ascontiguousarray(rgb), mask)
        self._patch_pdf(wpage, rgb, [raster.to_pixels(s.bbox) for s in strokes])
        return rgb

    def _raster_anchors(self, groups: list[LabelGroup]) -> dict[int, tuple[float, float]]:
        """Leader anchors of OCR labels still without one, from the original render's pixels.

        All OCR label boxes are passed, so a leader is matched to its nearest label.
        """
        if all(g.anchor is not None for g in groups):
            return {}
        from labeler.erase.raster import find_raster_anchors

        raster = self._raster()
        boxes = [raster.to_pixels(g.bbox) for g in groups]
        found = find_raster_anchors(raster.rgb, boxes)
        return {id(g): raster.point(p) for g, p in zip(groups, found, strict=True) if p is not None}

    def _patch_pdf(self, wpage: pymupdf.Page, rgb: np.ndarray, boxes: Sequence[PixelBox]) -> None:
        """Lay the erased pixels of each raster label over the (cropped) question page."""
        raster = self._raster()
        for box in boxes:
            x0, y0, x1, y1 = _grow(box, 3, rgb.shape)
            if x1 <= x0 or y1 <= y0:
                continue
            pts = raster.to_points((x0, y0, x1, y1))
            rect = pymupdf.Rect(pts) - (self.area.x0, self.area.y0, self.area.x0, self.area.y0)
            wpage.insert_image(rect, stream=Image(np.ascontiguousarray(rgb[y0:y1, x0:x1])).png)


def _reach(box: Box, end: tuple[float, float]) -> float:
    """How far ``end`` lies from ``box`` (0 inside it)."""
    dx = max(box[0] - end[0], 0.0, end[0] - box[2])
    dy = max(box[1] - end[1], 0.0, end[1] - box[3])
    return float(np.hypot(dx, dy))


def _grow(box: PixelBox, pad: int, shape: tuple[int, ...]) -> PixelBox:
    return (
        max(box[0] - pad, 0),
        max(box[1] - pad, 0),
        min(box[2] + pad, shape[1]),
        min(box[3] + pad, shape[0]),
    )


def _erase_pixels(rgb: np.ndarray, boxes: Sequence[PixelBox]) -> np.ndarray:
    from labeler.erase.raster import erase_raster_labels

    return erase_raster_labels(np.ascontiguousarray(rgb), list(boxes))


def _clip_rect(page: pymupdf.Page, clip: Sequence[float] | None) -> pymupdf.Rect:
    if clip is None:
        return pymupdf.Rect(page.rect)
    rect = pymupdf.Rect(check_clip(clip)) & page.rect
    if rect.is_empty or rect.width < 1 or rect.height < 1:
        raise DocumentError(
            f"clip {tuple(clip)} does not overlap the page {tuple(page.rect)}"
            " (clips are PDF points, top-left origin)"
        )
    return rect


def erase(
    doc: pymupdf.Document,
    page: int,
    clip: Sequence[float] | None,
    dpi: int,
    edits: EraseEdits,
) -> EraseResult:
    """The body of :func:`labeler.erase.erase_figure` (see there)."""
    if dpi <= 0 or dpi > 1200:
        raise DocumentError(f"dpi must be between 1 and 1200, not {dpi}")
    if not 1 <= page <= doc.page_count:
        raise DocumentError(
            f"page {page} does not exist; the document has pages 1-{doc.page_count}"
        )
    source = doc[page - 1]
    check_page_boxes(source, f"{doc.name or 'the document'} page {page}")
    area = _clip_rect(source, clip)
    check_pixels(area.width, area.height, dpi, f"{doc.name or 'the document'} page {page}")
    figure = Figure(
        source=source,
        area=area,
        dpi=dpi,
        spans=text_spans(source, rect_box(area)),
        drawings=page_drawings(source, rect_box(area)),
        images=image_boxes(source, rect_box(area)),
    )
    figure.harvest(
        keep=list(edits.keep), extra=list(edits.extra_boxes), removed=list(edits.removed_boxes)
    )
    return figure.erase(doc, page, edits.mask_strokes)
