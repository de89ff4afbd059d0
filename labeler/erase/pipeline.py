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

import cv2
import numpy as np
import pymupdf

from labeler.erase.outlines import erase_outlines, glyph_lines
from labeler.erase.raster_path import (
    PixelBox,
    Raster,
    ocr_fragments,
    read_outline_text,
    read_region,
)
from labeler.erase.result import EraseResult, HarvestedLabel
from labeler.erase.vector_text import erase_vector_text
from labeler.harvest import Fragment, LabelGroup, LeaderIndex, fragments_from_spans, group_labels
from labeler.harvest.group import join_lines
from labeler.pdf.content import Box, Drawing, TextSpan
from labeler.pdf.document import render_pixmap

METHOD_NAMES = {"vector": "vector-text", "outline": "outline", "ocr": "ocr"}


def _center_in(box: Box, areas: Sequence[Box]) -> Box | None:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return next((a for a in areas if a[0] <= cx <= a[2] and a[1] <= cy <= a[3]), None)


def _png(rgb: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    if not ok:
        raise RuntimeError("PNG encoding failed")
    return data.tobytes()


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

    def _raster(self) -> Raster:
        if self.raster is None:
            self.raster = Raster.from_pixmap(self.answer, self.dpi)
        return self.raster

    def harvest(self, keep: Sequence[Box], extra: Sequence[Box], removed: Sequence[Box]) -> None:
        """Find every label in the clip and decide what is erased, kept or keyed."""
        self.answer = render_pixmap(self.source, self.dpi, self.area)
        clip = tuple(self.area)
        leaders = LeaderIndex(self.drawings)
        fragments = fragments_from_spans([s for s in self.spans if s.plausible])
        for line in glyph_lines(self.drawings, clip):
            line.text = read_outline_text(self._raster(), line)
            if line.text:
                fragments.append(line)
        regions = list(self.images) + [s.bbox for s in self.spans if not s.plausible]
        if regions:
            taken = [f.bbox for f in fragments]
            raster = self._raster()
            fragments += [
                f
                for f in ocr_fragments(raster, [raster.to_pixels(r) for r in regions])
                if _center_in(f.bbox, taken) is None
            ]
        loose = []
        forced: dict[Box, list[Fragment]] = {box: [] for box in extra}
        for fragment in fragments:
            if _center_in(fragment.bbox, keep):
                self.kept.append(fragment.text)
            elif (box := _center_in(fragment.bbox, extra)) is not None:
                forced[box].append(fragment)
            else:
                loose.append(fragment)
        groups = group_labels(loose, leaders)
        for box, lines in forced.items():
            groups.append(self._forced_group(box, lines or self._read_box(box), leaders))
        for group in groups:
            if group.excluded or _center_in(group.bbox, removed):
                self.kept.append(group.text)
            else:
                self.groups.append(group)

    def _read_box(self, box: Box) -> list[Fragment]:
        """A curator's box over text we did not find: OCR it and erase it as raster."""
        raster = self._raster()
        pixels = raster.to_pixels(box)
        text = " ".join(t for t, _ in sorted(read_region(raster, pixels), key=lambda h: h[1][1]))
        return [Fragment(text=text, bbox=box, size=box[3] - box[1], kind="ocr", parts=[pixels])]

    @staticmethod
    def _forced_group(box: Box, lines: list[Fragment], leaders: LeaderIndex) -> LabelGroup:
        group = LabelGroup(sorted(lines, key=lambda f: (f.bbox[1], f.bbox[0])))
        group.text = join_lines([f.text for f in group.lines])
        group.leader = leaders.leader_at(group.bbox, 0.9 * group.lines[0].size)
        if group.leader is not None:
            group.anchor = LeaderIndex.anchor(group.leader, group.bbox)
        return group

    def erase(self, doc: pymupdf.Document, page: int) -> EraseResult:
        """Erase the harvested labels on a copy of the page; render and package the result."""
        work = pymupdf.open()
        work.insert_pdf(doc, from_page=page - 1, to_page=page - 1)
        wpage = work[0]
        erased = [g for g in self.groups if g.marker is None]
        parts = {"vector": [], "outline": [], "ocr": []}
        for group in erased:
            for line in group.lines:
                parts[line.kind].extend(line.parts)
        erase_vector_text(wpage, parts["vector"])
        erase_outlines(wpage, parts["outline"])
        question = render_pixmap(wpage, self.dpi, self.area)
        anchors = self._raster_anchors([g for g in erased if g.kind == "ocr"])
        question_pdf = pymupdf.open()
        qpage = question_pdf.new_page(width=self.area.width, height=self.area.height)
        qpage.show_pdf_page(qpage.rect, work, 0, clip=self.area)
        if parts["ocr"]:
            qraster = Raster.from_pixmap(question, self.dpi)
            rgb = _erase_pixels(qraster.rgb, parts["ocr"])
            question_png = _png(rgb)
            self._patch_pdf(qpage, qraster, rgb, parts["ocr"])
        else:
            question_png = question.tobytes("png")
        labels = [
            HarvestedLabel(
                text="" if g.marker else g.text,
                bbox=tuple(round(v, 2) for v in g.bbox),
                kind=g.kind,
                anchor=g.anchor or anchors.get(id(g)),
                marker=g.marker,
            )
            for g in self.groups
        ]
        kinds = [k for k in ("vector", "outline", "ocr") if parts[k]]
        return EraseResult(
            question_png=question_png,
            answer_png=self.answer.tobytes("png"),
            question_pdf=question_pdf.tobytes(garbage=1, deflate=True),
            labels=labels,
            method="+".join(METHOD_NAMES[k] for k in kinds) or "none",
            clip=tuple(self.area),
            dpi=self.dpi,
            kept=[t for t in self.kept if t],
        )

    def _raster_anchors(self, groups: list[LabelGroup]) -> dict[int, tuple[float, float]]:
        """Leader anchors of OCR labels, found in the original render's line pixels."""
        if not groups:
            return {}
        from labeler.erase.raster import find_raster_anchors

        raster = self._raster()
        boxes = [raster.to_pixels(g.bbox) for g in groups]
        found = find_raster_anchors(raster.rgb, boxes)
        return {id(g): raster.point(p) for g, p in zip(groups, found, strict=True) if p is not None}

    def _patch_pdf(
        self, qpage: pymupdf.Page, raster: Raster, rgb: np.ndarray, boxes: Sequence[PixelBox]
    ) -> None:
        """Lay the erased pixels of each raster label over the vector question page."""
        for box in boxes:
            x0, y0, x1, y1 = _grow(box, 3, rgb.shape)
            if x1 <= x0 or y1 <= y0:
                continue
            pts = raster.to_points((x0, y0, x1, y1))
            rect = pymupdf.Rect(pts) - (self.area.x0, self.area.y0, self.area.x0, self.area.y0)
            qpage.insert_image(rect, stream=_png(np.ascontiguousarray(rgb[y0:y1, x0:x1])))


def _grow(box: PixelBox, pad: int, shape: tuple[int, ...]) -> PixelBox:
    return (max(box[0] - pad, 0), max(box[1] - pad, 0), min(box[2] + pad, shape[1]), min(box[3] + pad, shape[0]))


def _erase_pixels(rgb: np.ndarray, boxes: Sequence[PixelBox]) -> np.ndarray:
    from labeler.erase.raster import erase_raster_labels

    return erase_raster_labels(np.ascontiguousarray(rgb), list(boxes))
