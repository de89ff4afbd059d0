"""The raster side of erasure, seen from ``erase_figure``: pixels ↔ points and OCR fragments.

The OCR engine and the line-protecting eraser live in ``labeler.erase.ocr`` and
``labeler.erase.raster``; this module only converts between the rendered
clip's pixels and page points and turns OCR boxes into harvest fragments.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pymupdf

from labeler.erase.ocr import DEFAULT_DETECTION, SMALL_TEXT, OcrBox
from labeler.erase.resample import Enlarged, smoothed
from labeler.erase.rotated import Quad, quad_height
from labeler.harvest.fragments import Fragment, merge_on_lines
from labeler.harvest.group import join_lines
from labeler.harvest.type_size import line_x_height
from labeler.pdf.geometry import Box, PixelBox, Point, center_in, union


@dataclass(frozen=True)
class Raster:
    """A rendered clip: RGB pixels plus the mapping back to page points."""

    rgb: np.ndarray
    origin: tuple[int, int]  # pixmap x, y in zoomed page space
    zoom: float
    pixmap: pymupdf.Pixmap | None = None  # owns the memory ``rgb`` views (no copy)

    @classmethod
    def from_pixmap(cls, pix: pymupdf.Pixmap, dpi: int) -> Raster:
        rgb = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
        return cls(rgb[:, :, :3], (pix.x, pix.y), dpi / 72.0, pix)

    def to_points(self, box: Sequence[float]) -> Box:
        x0, y0, x1, y1 = box
        ox, oy = self.origin
        z = self.zoom
        return ((x0 + ox) / z, (y0 + oy) / z, (x1 + ox) / z, (y1 + oy) / z)

    def to_pixels(self, box: Box) -> PixelBox:
        h, w = self.rgb.shape[:2]
        ox, oy = self.origin
        z = self.zoom
        x0 = max(int(box[0] * z - ox), 0)
        y0 = max(int(box[1] * z - oy), 0)
        x1 = min(int(np.ceil(box[2] * z - ox)), w)
        y1 = min(int(np.ceil(box[3] * z - oy)), h)
        return (x0, y0, x1, y1)

    def to_pixel_point(self, xy: Sequence[float]) -> tuple[float, float]:
        """A page point's position in the rendered clip, in (fractional) pixels."""
        return (xy[0] * self.zoom - self.origin[0], xy[1] * self.zoom - self.origin[1])

    def point(self, xy: Sequence[float]) -> tuple[float, float]:
        return (
            round((xy[0] + self.origin[0]) / self.zoom, 2),
            round((xy[1] + self.origin[1]) / self.zoom, 2),
        )


Hit = tuple[str, PixelBox]

#: Degrees: a read of one or two characters tilted more than this is texture, not a marker.
MAX_SHORT_TILT = 20.0


def read_all(
    raster: Raster, enlarged: Sequence[Enlarged] = ()
) -> tuple[list[Hit], dict[PixelBox, Quad]]:
    """OCR the whole rendered clip once: (text, pixel box) per line read, and the quad of
    each tilted line (by its box), which is erased inside that quad.

    The images in ``enlarged`` are read from a smooth resampling of their blocky render
    (``resample``), and a clip holding one is detected with ``SMALL_TEXT`` settings; the
    boxes are in the render's pixels either way.

    One pass over the clip is both faster and more accurate than OCR of many
    small crops (the detector upsamples every crop to its working size). Labels written
    at an angle add turned passes, only when the upright one shows them (``rotated``).
    """
    from labeler.erase.rotated import is_tilted, read_lines

    found: list[Hit] = []
    quads: dict[PixelBox, Quad] = {}
    rgb = smoothed(np.ascontiguousarray(raster.rgb), enlarged)
    for hit in read_lines(rgb, SMALL_TEXT if enlarged else DEFAULT_DETECTION):
        text = label_text(hit)
        if text is not None:
            x0, y0, x1, y1 = (round(float(v)) for v in hit.bbox)
            found.append((text, (x0, y0, x1, y1)))
            if is_tilted(hit):
                quads[(x0, y0, x1, y1)] = hit.quad
    return found, quads


def label_text(hit: OcrBox) -> str | None:
    """The text of a confident OCR line as a label's, or None when it is no label's.

    Every read that may become a label passes here: word spaces restored, stubs
    stripped, and reads of round texture or tilted one- or two-letter specks dropped.
    """
    text = strip_line_marks(_spaced(" ".join(str(hit.text).split())))
    # two dots of a texture read along a diagonal ("00" over a cell's ribosomes): a
    # tilted read must be longer than a marker to be a label
    if not text or _circles(text):
        return None
    return text if abs(hit.angle) <= MAX_SHORT_TILT or len(text) > 2 else None


#: A colon between two lowercase letters: OCR's read of a word space in small type.
_COLON_SPACE = re.compile(r"(?<=[a-z]):(?=[a-z])")


def _spaced(text: str) -> str:
    """ "Filaments:of cytoskeleton" (the membrane figure pasted 240 pt wide) is "Filaments of
    cytoskeleton": a label's colon ends a heading and is followed by a space, never a letter."""
    return _COLON_SPACE.sub(" ", text)


#: Characters OCR reads a drawing's small circles as.
_ROUND = frozenset("0oO°")


def _circles(text: str) -> bool:
    """A read spelled only with round letters ("000" for the three vessel openings drawn on
    Gray's elbow plate) is small circles of the drawing: no label is spelled so.

    Nor is a long run of digits that is mostly round ("700200000" for a row of a membrane's
    phospholipid heads, some read as other digits): a figure's callout numbers are one to
    three digits, and its names have letters.
    """
    if len(text) < 2 or not set(text) <= _ROUND | set("0123456789"):
        return False
    round_share = sum(c in _ROUND for c in text) / len(text)
    return round_share == 1.0 or (len(text) >= 4 and round_share >= 0.5)


def tilted_fragments(
    raster: Raster, hits: Sequence[Hit], quads: dict[PixelBox, Quad]
) -> list[Fragment]:
    """One line fragment per tilted OCR line, read along its own direction.

    Its ``parts`` hold the quad (pixels) it is erased inside; its ``direction`` lets the
    grouper stack the lines of one tilted label as it does rotated vector text.
    """
    pieces = []
    for text, box in hits:
        quad = quads[box]
        (ax, ay), (bx, by) = quad[0], quad[1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        bbox = raster.to_points(box)
        size = quad_height(quad) / raster.zoom / 1.2  # an OCR quad spans the line
        pieces.append(
            Fragment(
                text=text,
                bbox=bbox,
                size=size,
                kind="ocr",
                direction=((bx - ax) / length, (by - ay) / length),
                parts=[quad],
            )
        )
    return stacked(pieces)


#: Degrees two tilted lines' directions may differ by and still be lines of one label.
STACK_ANGLE = 12.0
#: × the smaller quad height: how far apart (or overlapping) two stacked lines' quads may be
#: across the lines (detector quads are padded, so a label's lines often overlap a little).
STACK_GAP = 0.5
#: Share of the shorter line that must lie beside the longer one along the lines.
STACK_OVERLAP = 0.3
#: × the smaller quad height: how far two stacked lines' starts, ends or centres may differ.
STACK_ALIGN = 0.8


def stacked(pieces: Sequence[Fragment]) -> list[Fragment]:
    """Tilted lines stacked into labels: one fragment per run of lines under one another.

    The grouper joins lines by their boxes, but a tilted line's box is its axis-aligned hull,
    which on a 45° label overlaps the line above and below and the neighbours beside it. Here
    lines are compared in their own frame: the same direction (within ``STACK_ANGLE``), right
    under each other across the lines and side by side along them ("Aperture" / "for" /
    "Dors. Inteross. Vess." on Gray's elbow plate). The joined fragment keeps every line's
    quad, so each is erased inside its own.
    """
    parent = list(range(len(pieces)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(pieces):
        for j in range(i + 1, len(pieces)):
            if _stacked(a, pieces[j]):
                parent[root(j)] = root(i)
    runs: dict[int, list[Fragment]] = {}
    for i, piece in enumerate(pieces):
        runs.setdefault(root(i), []).append(piece)
    return [_joined(run) if len(run) > 1 else run[0] for run in runs.values()]


def _stacked(a: Fragment, b: Fragment) -> bool:
    """Are ``a`` and ``b`` adjacent lines of one tilted label (either above the other)?"""
    along = a.direction
    if along[0] * b.direction[0] + along[1] * b.direction[1] < math.cos(math.radians(STACK_ANGLE)):
        return False
    across = a.down
    height = min(quad_height(a.parts[0]), quad_height(b.parts[0]))
    a0, a1 = _span(a, across)
    b0, b1 = _span(b, across)
    gap = max(b0 - a1, a0 - b1)
    if not -STACK_GAP * height <= gap <= STACK_GAP * height:
        return False
    a0, a1 = _span(a, along)
    b0, b1 = _span(b, along)
    if min(a1, b1) - max(a0, b0) < STACK_OVERLAP * min(a1 - a0, b1 - b0):
        return False
    # aligned at the start, the end or the centre, as a label's lines are set; two labels
    # side by side along one line of hatching ("Coronoid proc." before "ANNULAR LIGAMT") are not
    tolerance = STACK_ALIGN * height
    return min(abs(a0 - b0), abs(a1 - b1), abs(a0 + a1 - b0 - b1) / 2) <= tolerance


def _span(piece: Fragment, axis: Point) -> tuple[float, float]:
    """Min and max of a tilted line's quad corners (pixels) projected on ``axis``."""
    values = [x * axis[0] + y * axis[1] for quad in piece.parts for x, y in quad]
    return min(values), max(values)


def _joined(run: list[Fragment]) -> Fragment:
    """The lines of one tilted label as one fragment, read top line first."""
    first = max(run, key=lambda f: _span(f, f.direction)[1] - _span(f, f.direction)[0])
    lines = sorted(run, key=lambda f: sum(_span(f, first.down)))
    return Fragment(
        text=join_lines([f.text for f in lines]),
        bbox=union(f.bbox for f in lines),
        size=max(f.size for f in lines),
        kind="ocr",
        direction=first.direction,
        parts=[quad for f in lines for quad in f.parts],
    )


#: What OCR reads a leader's stub, its dot or a line end as, at either end of a label.
_STUB_START = re.compile(r"^[\-\u2010-\u2015_~=|•·∙●○◦*+>»<«\s]+")
_STUB_END = re.compile(r"[\-\u2010-\u2015_~=|•·∙●○◦*+<«>»\s]+$")


def strip_line_marks(text: str) -> str:
    """``-Notochord`` and ``Atrium•`` are ``Notochord`` and ``Atrium``: stubs are not letters.

    Only marks at the ends go; a hyphen inside a name (``A-V node``) and brackets stay, and
    so does a hyphen right after a letter at the end (``Mito-``): a word broken over two lines,
    which the grouper joins back.
    """
    text = _STUB_START.sub("", text)
    broken = re.search(r"\w-$", text) is not None
    return text if broken else _STUB_END.sub("", text)


def hits_in(hits: Sequence[Hit], box: PixelBox) -> list[Hit]:
    """The hits whose centre lies in ``box``, in reading order."""
    return sorted((h for h in hits if center_in(h[1], box)), key=lambda h: (h[1][1], h[1][0]))


def ocr_fragments(raster: Raster, hits: Sequence[Hit]) -> list[Fragment]:
    """Line fragments for OCR hits (boxes converted to page points, x-heights measured)."""
    pieces = []
    for text, box in hits:
        bbox = raster.to_points(box)
        pieces.append(
            Fragment(
                text=text,
                bbox=bbox,
                size=(bbox[3] - bbox[1]) / 1.2,
                kind="ocr",
                parts=[box],
                x_height=line_x_height(raster.rgb, box, raster.zoom),
            )
        )
    return merge_on_lines(pieces)


#: OCR must read over this share of a glyph cluster's box for the cluster to be one text line.
MIN_READ_SHARE = 0.5


def name_outline_lines(
    raster: Raster, hits: Sequence[Hit], lines: Sequence[Fragment]
) -> list[Fragment]:
    """Give each outline-glyph line the OCR text read over it; drop lines OCR cannot read.

    Each hit goes to the line it overlaps most, so a hit is never used twice. A cluster is a
    text line only if what OCR read covers most of it: dark drawing next to a label (a
    membrane's dark fills, small molecules, a shaded edge) chains into one huge "line" of
    glyph-sized paths, and erasing that box would delete the drawing. Such a cluster keeps only
    the boxes OCR read in it, one line each, so the label is erased and the drawing is not.
    """
    texts: dict[int, list[Hit]] = {}
    for hit in hits:
        best, best_area = None, 0.0
        for index, line in enumerate(lines):
            area = _overlap_area(raster.to_pixels(line.bbox), hit[1])
            if area > best_area:
                best, best_area = index, area
        if best is not None:
            texts.setdefault(best, []).append(hit)
    named = []
    for index, line in enumerate(lines):
        found = sorted(texts.get(index, ()), key=lambda h: h[1][0])
        if not found:
            continue
        box = raster.to_pixels(line.bbox)
        area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
        if sum(_overlap_area(box, h[1]) for h in found) >= MIN_READ_SHARE * area:
            line.text = " ".join(t for t, _ in found)
            named.append(line)
            continue
        pieces = []
        for text, hit_box in found:
            x0, y0, x1, y1 = raster.to_points(hit_box)
            lx0, ly0, lx1, ly1 = line.bbox
            read = (max(x0, lx0), max(y0, ly0), min(x1, lx1), min(y1, ly1))
            if read[2] > read[0] and read[3] > read[1]:
                size = (read[3] - read[1]) / 1.2  # an OCR box spans the line, as in ocr_fragments
                pieces.append(
                    Fragment(text=text, bbox=read, size=size, kind="outline", parts=[read])
                )
        # the words of a two-word label OCR read apart are one line again, as OCR lines are
        named.extend(merge_on_lines(pieces))
    return named


def _overlap_area(a: Sequence[float], b: Sequence[float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
