"""Erase burned-in labels from a raster figure without cutting its leader lines.

Filling a label's box with white (what older diagram datasets did) also deletes
every leader line that touches or crosses the box. Here each group of touching
boxes (a *region*) is handled like this:

1. Thin dark lines are found in a ring around the region, outside every label box
   (:mod:`labeler.erase.lines`). Glyph strokes live inside boxes, so the lines
   found there are drawing lines: leaders ending at the label, or lines passing by.
2. Each line that runs into the region is followed across it. If it comes out on
   the other side it is a line *passing through* and its pixels across the whole
   region are protected. Otherwise it is a leader ending at the label; its stub is
   protected only as far as line pixels go and never into the text itself.
3. Ink is what differs clearly from the ring's background colour. Ink connected to
   a large part of the drawing outside the boxes (a box that overlaps the drawing)
   is kept; the rest, minus the protected pixels, is glyph ink and is erased
   together with its antialiased fringe.
4. The erased pixels are painted white when the ring is white, inpainted
   (``cv2.inpaint``) when the label sits on a flat or shaded colour, and filled with
   texture copied from beside the label when it sits on a texture
   (:mod:`labeler.erase.texture`), so no smooth word-shaped patch is left. A label on
   paper with a pale drawing behind it (filaments crossing the word) is on paper however
   crowded the ring is: the drawing's fill and outlines are kept, and the letters over
   them inpainted from them, so the drawing runs on across the box.

Only pixels inside the given boxes are ever changed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from labeler.erase.leaders import leader_ends
from labeler.erase.lines import (
    Point,
    Segment,
    ahead,
    draw_band,
    find_segments,
    ink_fraction,
    longest_gap,
    sample,
    thin_dark_mask,
    walk,
)
from labeler.erase.texture import is_textured, texture_patch
from labeler.pdf.geometry import PixelBox

FILL_MODES = ("auto", "white", "inpaint")

#: RGB distance from the background colour above which a pixel is ink (JPEG noise
#: around text stays below ~25; black text on white is ~440).
INK_DISTANCE = 60.0
#: Lower distance for the antialiased fringe around glyphs on coloured
#: backgrounds, erased only within two pixels of glyph ink.
FRINGE_DISTANCE = 10.0
#: RGB distance from every mix of text colour and paper beyond which a pixel in a label box
#: on paper is drawing, not lettering (JPEG colour noise at black text stays below ~20).
BLEND_DISTANCE = 30.0
#: Grey levels below the colour of the drawing around a label at which a pixel over that
#: drawing is a letter mixed into it, not the drawing itself.
DRAWN_DARKER = 25.0
#: Pixels (px) beyond a letter's dark stroke that its antialiased edge reaches.
LETTER_EDGE = 1
#: Pixels (px) from a pale drawing's fill within which its outline lies.
OUTLINE_WIDTH = 2
#: Ring pixels a drawing's fill and outline must reach to be drawing running on past a label.
OUTLINE_OUTSIDE = 6
#: An inpainted pixel this close to white in every channel is paper.
PAPER_SNAP = 30
#: A ring pixel is "white" when every channel is at least this bright.
WHITE_LEVEL = 235
#: Share of a line's continuation that must be stroke pixels to call it a line
#: passing through (gaps come from JPEG and antialiasing of diagonals).
THROUGH_FRACTION = 0.6
#: A gap (px) in a line's stroke across a label at least this long means the line does not
#: cross the label: it is two collinear leaders, one leaving each end of the word.
THROUGH_GAP = 3


@dataclass(frozen=True)
class _Line:
    """A thin line running into a region: ``entry`` on its border, heading ``u``."""

    far: Point
    entry: Point
    exit: Point
    u: Point
    width: float
    through: bool


def erase_raster_labels(
    rgb: np.ndarray, boxes: Sequence[Sequence[float]], *, fill: str = "auto"
) -> np.ndarray:
    """Return a copy of ``rgb`` with the label ink inside ``boxes`` erased.

    Lines that cross a box, or leader lines that run into it, keep their pixels
    (see the module docstring). ``fill`` is ``"white"``, ``"inpaint"`` or
    ``"auto"`` (white when the ring around the box is white, inpainting otherwise).
    Pixels outside the boxes are never changed.
    """
    _check_image(rgb)
    if fill not in FILL_MODES:
        raise ValueError(f"fill must be one of {FILL_MODES}, got {fill!r}")
    out = rgb.copy()
    clean = [b for b in (_clamp(b, rgb.shape) for b in boxes) if b is not None]
    if not clean:
        return out
    labels = _label_mask(rgb.shape, clean)
    thin = thin_dark_mask(rgb)
    for region, region_boxes in _regions(labels, clean):
        _erase_region(_window(rgb, labels, thin, region, region_boxes), out, fill)
    return out


def erase_mask(rgb: np.ndarray, mask: np.ndarray, *, fill: str = "auto") -> np.ndarray:
    """Return a copy of ``rgb`` with every pixel of ``mask`` painted over as background.

    This is the curator's brush: nothing under the mask is protected (no line
    detection), only the fill is shared with :func:`erase_raster_labels`. Each
    connected patch of the mask is filled on its own: white when the ring of
    pixels around it is white paper, inpainted from that ring otherwise.
    """
    _check_image(rgb)
    if fill not in FILL_MODES:
        raise ValueError(f"fill must be one of {FILL_MODES}, got {fill!r}")
    if mask.shape != rgb.shape[:2]:
        raise ValueError(f"mask shape {mask.shape} does not match the image {rgb.shape[:2]}")
    out = rgb.copy()
    count, comp, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    ring_width = 4
    pad = ring_width + 4  # the ring plus room for the inpainting radius
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring_width + 1,) * 2)
    for k in range(1, count):
        x, y, w, h = stats[k, :4]
        y0, x0 = max(0, y - pad), max(0, x - pad)
        window = (
            slice(y0, min(rgb.shape[0], y + h + pad)),
            slice(x0, min(rgb.shape[1], x + w + pad)),
        )
        patch = comp[window] == k
        ring = cv2.dilate(patch.astype(np.uint8), kernel).astype(bool) & ~mask[window]
        white = fill == "white"
        if fill == "auto":
            white = _is_white(rgb[window], ring, _background(rgb[window], ring))
        _fill(out[window], patch, white=white, unknown=patch)
    return out


def find_raster_anchors(
    rgb: np.ndarray, boxes: Sequence[Sequence[float]]
) -> list[tuple[float, float] | None]:
    """For each box, the far end of the leader line that starts at it, else None.

    A leader starts a little way from its label (the box nearest to that end),
    points into the box, is a free end there (not a curve of the drawing passing
    by) and does not cross the box. It is followed across gaps and round clean
    bends to where its pixels stop (see :mod:`labeler.erase.leaders`). Of several
    leaders, the one starting closest to the label wins; of two starting equally
    close (a label with two leaders), the longer. Boxes may be whole multi-line
    labels or single lines; a box with nothing usable (off the image) gets None.
    """
    _check_image(rgb)
    clamped = [_clamp(b, rgb.shape) for b in boxes]
    clean = [b for b in clamped if b is not None]
    thin = thin_dark_mask(rgb)
    outside = thin & ~_label_mask(rgb.shape, clean)
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    found = iter(leader_ends(gray, thin, outside, clean))
    return [None if box is None else next(found) for box in clamped]


# --- erasure -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Window:
    """The part of the image around one region, with the masks every step needs."""

    origin: tuple[int, int]  # x, y of the window in the image
    rgb: np.ndarray
    inside: np.ndarray  # the region (the boxes being erased)
    in_labels: np.ndarray  # any label box, this region's or a neighbour's
    thin: np.ndarray  # thin dark strokes
    near: np.ndarray  # within ``margin`` of the region
    margin: int  # ring width around the region where lines are looked for
    boxes: list[PixelBox]
    image: np.ndarray  # the whole image, where texture to fill a hole is copied from
    labels: np.ndarray  # every label box of the whole image (never copied)

    @property
    def ring(self) -> np.ndarray:
        return self.near & ~self.in_labels

    @property
    def slices(self) -> tuple[slice, slice]:
        height, width = self.inside.shape
        return slice(self.origin[1], self.origin[1] + height), slice(
            self.origin[0], self.origin[0] + width
        )


def _window(
    rgb: np.ndarray, labels: np.ndarray, thin: np.ndarray, region: np.ndarray, boxes: list[PixelBox]
) -> _Window:
    """Cut the window around ``region``: the ring plus room to check lines beyond it."""
    margin = int(np.clip(round(0.6 * float(np.median([b[3] - b[1] for b in boxes]))), 8, 30))
    ys, xs = np.nonzero(region)
    pad = margin + _beyond(margin) + 2
    x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
    x1, y1 = min(rgb.shape[1], xs.max() + pad + 1), min(rgb.shape[0], ys.max() + pad + 1)
    inside = region[y0:y1, x0:x1]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * margin + 1, 2 * margin + 1))
    return _Window(
        origin=(int(x0), int(y0)),
        rgb=rgb[y0:y1, x0:x1],
        inside=inside,
        in_labels=labels[y0:y1, x0:x1],
        thin=thin[y0:y1, x0:x1],
        near=cv2.dilate(inside.astype(np.uint8), kernel).astype(bool),
        margin=margin,
        boxes=boxes,
        image=rgb,
        labels=labels,
    )


def _beyond(margin: int) -> int:
    """How far past a region a line must go on to count as passing through it."""
    return max(6, margin // 2)


def _erase_region(win: _Window, out: np.ndarray, fill: str) -> None:
    """Erase the glyph ink of one region of touching boxes into ``out``."""
    lines = _lines_into(win)
    clean_ring = win.ring & ~win.thin
    background = _background(win.rgb, clean_ring)
    distance = np.linalg.norm(win.rgb.astype(np.float32) - background, axis=2)
    ink = distance > INK_DISTANCE
    drawing, core = _drawing_and_text(win, ink, lines)
    protected = _protected(win, lines, core)
    repair, colours = _crossing_repairs(win.rgb, lines, protected, ~win.in_labels)
    protected &= ~repair

    glyph = ink & win.inside & ~drawing & ~protected
    behind = None
    if fill == "white" or (fill == "auto" and (background >= WHITE_LEVEL).all()):
        behind = _pale_drawing_behind(win, ink, glyph, background)
    if fill == "auto":
        # paper crowded by a pale drawing is still paper: the drawing is kept, not inpainted
        white = behind is not None or _is_white(win.rgb, clean_ring, background)
        fill = "white" if white else "inpaint"
    erase = glyph | _fringe(glyph, distance, white=fill == "white")
    erase &= win.inside & ~protected & ~drawing & ~repair
    drawn = np.zeros_like(erase) if behind is None else erase & behind
    erase &= ~drawn
    target = out[win.slices]
    target[repair] = colours[repair]
    # on a texture the whole box is refilled, not just the glyphs: texture cut to the
    # glyphs' outlines would still spell the word
    hole = win.inside & ~protected & ~drawing & ~repair
    patch = None
    if fill != "white" and is_textured(win.rgb, win.ring, background):
        patch = texture_patch(win.image, win.labels, hole, win.origin, clean_ring)
    if patch is not None:
        target[hole] = patch
    elif drawn.any():
        _fill_over_drawing(target, erase, erase | protected, drawn)
    else:
        # inpaint the lines' pixels too, so their dark does not bleed into the fill
        _fill(target, erase, white=fill == "white", unknown=erase | protected)


# --- a pale drawing behind labels on paper -------------------------------------------


def _pale_drawing_behind(
    win: _Window, ink: np.ndarray, glyph: np.ndarray, paper: np.ndarray
) -> np.ndarray | None:
    """The pixels of a pale drawing a label on paper was printed over; None if there is none.

    Such a drawing (the membrane figure's filaments behind black words) is two things:

    * its fill, which no mix of the text colour and the paper makes (pale yellow behind
      black type); letters antialiased over it are darker mixes and still the letters;
    * its outlines, thin strokes next to the fill. They are grey, a mix of black and paper
      like a letter's edge, so they are told apart by where they lie: beside the fill,
      clear of the letters' dark strokes, and running on outside the label with the fill
      (a faint ghost of a word would not).

    There is such a drawing when the ring round the label holds some of that fill.
    """
    off = _off_blend(win.rgb, glyph, paper)
    around = off & win.ring & ~win.thin
    if around.sum() < 8:
        return None
    gray = win.rgb.astype(np.float32).mean(axis=2)
    fill = off & (gray >= float(np.median(gray[around])) - DRAWN_DARKER)
    text = float(_text_colour(win.rgb, glyph).mean()) if glyph.any() else 0.0
    strokes = glyph & (gray <= (text + float(paper.mean())) / 2)
    outline = ink & ~fill & _grown(fill, OUTLINE_WIDTH) & ~_grown(strokes, LETTER_EDGE)
    count, comp = cv2.connectedComponents((fill | outline).astype(np.uint8), connectivity=8)
    outer = np.bincount(comp[win.ring], minlength=count)
    running_on = outer >= OUTLINE_OUTSIDE
    running_on[0] = False
    return fill | (outline & running_on[comp])


def _fill_over_drawing(
    target: np.ndarray, erase: np.ndarray, unknown: np.ndarray, drawn: np.ndarray
) -> None:
    """Paint out letters printed over a kept pale drawing on white paper (in place).

    Letter pixels beside the drawing are inpainted from it, so its fill and outlines go on
    across the word; where that inpainting found only paper, and everywhere farther from
    the drawing, the pixel is painted white exactly, so no faint ghost of a letter is left
    on the paper.
    """
    beside = erase & _grown(drawn, OUTLINE_WIDTH)
    target[erase & ~beside] = 255
    if not beside.any():
        return
    painted = cv2.inpaint(
        np.ascontiguousarray(target), unknown.astype(np.uint8) * 255, 3, cv2.INPAINT_TELEA
    )
    painted[(painted >= 255 - PAPER_SNAP).all(axis=2)] = 255
    target[beside] = painted[beside]


def _text_colour(crop: np.ndarray, glyph: np.ndarray) -> np.ndarray:
    """The letters' colour: the median of the darkest fifth of the glyph pixels."""
    pixels = crop[glyph].astype(np.float32)
    return np.median(pixels[pixels.sum(axis=1) <= np.percentile(pixels.sum(axis=1), 20)], axis=0)


def _grown(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` dilated by ``radius`` pixels (a square)."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * radius + 1,) * 2, np.uint8)).astype(bool)


def _off_blend(crop: np.ndarray, glyph: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Pixels farther than ``BLEND_DISTANCE`` from every mix of the text colour and the paper.

    Antialiased and JPEG-blurred letters are such mixes (grey for black text, pink for red);
    a pale yellow filament behind a black word is not.
    """
    if not glyph.any():
        return np.zeros(glyph.shape, bool)
    text = _text_colour(crop, glyph)
    axis = paper - text
    rgb = crop.astype(np.float32)
    t = np.clip(((rgb - text) @ axis) / max(float(axis @ axis), 1.0), 0.0, 1.0)
    nearest = text + t[..., None] * axis
    return np.linalg.norm(rgb - nearest, axis=2) > BLEND_DISTANCE


def _fill(target: np.ndarray, erase: np.ndarray, *, white: bool, unknown: np.ndarray) -> None:
    """Paint ``erase`` pixels of ``target`` (in place) white, or inpaint them.

    Inpainting treats ``unknown`` (a superset of ``erase``) as missing, so dark
    pixels the caller keeps (a protected line) do not bleed into the fill.
    """
    if white:
        target[erase] = 255
    elif erase.any():
        painted = cv2.inpaint(
            np.ascontiguousarray(target), unknown.astype(np.uint8) * 255, 3, cv2.INPAINT_TELEA
        )
        target[erase] = painted[erase]


def _drawing_and_text(
    win: _Window, ink: np.ndarray, lines: list[_Line]
) -> tuple[np.ndarray, np.ndarray]:
    """Ink that belongs to the drawing, and per box the rectangle holding its text.

    Bands along every line cut glyphs loose from the lines touching them; ink
    components that then still reach well outside the boxes are drawing, but only
    in a box's margin: the middle of a box is where its text is, and a label
    written over hatching touches the hatching, so there drawing ink goes too
    (only detected lines are kept through the text). The text rectangle of a box
    bounds the remaining ink inside it; leaders stop there.
    """
    full = np.zeros(win.inside.shape, np.uint8)
    for line in lines:
        end = ahead(line.exit, line.u, _beyond(win.margin)) if line.through else line.exit
        draw_band(full, line.far, end, line.width / 2 + 1.5)
    banded = full.astype(bool)
    middle = _middles(win)
    height = min(b[3] - b[1] for b in win.boxes)
    drawing = _drawing_ink(ink & win.near & ~banded, win.inside, win.in_labels, height)
    drawing &= ~middle
    core = _text_cores(ink & win.inside & ~banded & ~drawing, win.boxes, win.origin)
    # the bands also cut drawing outlines that graze a box; give those pixels back
    drawing = _connected_to(drawing, ink & win.near & ~core & ~middle)
    return drawing, core


def _middles(win: _Window) -> np.ndarray:
    """Each box without a margin of 15% of its height all round: surely text."""
    middle = np.zeros(win.inside.shape, bool)
    ox, oy = win.origin
    for x0, y0, x1, y1 in win.boxes:
        pad = max(1, round(0.15 * (y1 - y0)))
        middle[y0 - oy + pad : y1 - oy - pad, x0 - ox + pad : x1 - ox - pad] = True
    return middle


def _protected(win: _Window, lines: list[_Line], core: np.ndarray) -> np.ndarray:
    """Region pixels on lines crossing it, or on leader stubs up to the text."""
    protect = np.zeros(win.inside.shape, np.uint8)
    for line in lines:
        end = line.exit if line.through else _stub_end(win.thin, core, line)
        draw_band(protect, ahead(line.entry, line.u, -2), end, line.width / 2 + 0.5)
    return protect.astype(bool) & win.inside


def _fringe(glyph: np.ndarray, distance: np.ndarray, *, white: bool) -> np.ndarray:
    """The glyphs' antialiased edges and JPEG ringing, which the ink threshold misses.

    On white paper every pixel within three pixels of a glyph is painted: ringing
    a few levels off white still shows as a ghost of the word. On a coloured
    background only pixels clearly off the background colour are taken, so that
    inpainting keeps as much of the real background as possible.
    """
    if white:
        return cv2.dilate(glyph.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
    around = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return (distance > FRINGE_DISTANCE) & cv2.dilate(glyph.astype(np.uint8), around).astype(bool)


def _crossing_repairs(
    crop: np.ndarray, lines: list[_Line], protected: np.ndarray, outside: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Protected pixels where a glyph stroke crosses a line, and the line's colour there.

    The protected band is a little wider than the line, so where a letter crosses
    it a short tick of glyph ink would survive on each side. The line's own
    profile across its width is measured where it runs outside the labels; a
    protected pixel much darker than that profile at the same distance from the
    centre is glyph ink and is repainted with the profile's colour.
    """
    repair = np.zeros(protected.shape, bool)
    colours = np.zeros_like(crop)
    if not lines or not protected.any():
        return repair, colours
    gray = crop.astype(np.float32).mean(axis=2)
    yy, xx = np.mgrid[0 : protected.shape[0], 0 : protected.shape[1]].astype(np.float32)
    for line in lines:
        normal = (-line.u[1], line.u[0])
        across = (xx - line.entry[0]) * normal[0] + (yy - line.entry[1]) * normal[1]
        along = (xx - line.entry[0]) * line.u[0] + (yy - line.entry[1]) * line.u[1]
        near = np.abs(across) <= line.width / 2 + 1.5
        reference = near & outside & (along < -1) & (along >= -math.dist(line.far, line.entry))
        band = near & protected & (along >= -2)
        bins = np.round(across * 2).astype(np.int32)
        profile = {}
        for b in np.unique(bins[reference]):
            ref = reference & (bins == b)
            if ref.sum() >= 3:
                profile[int(b)] = (float(np.median(gray[ref])), np.median(crop[ref], axis=0))
        for b in np.unique(bins[band]):
            # the centre estimate may drift by a pixel along the box: compare with
            # the darkest part of the profile within a pixel of this offset
            nearby = [profile[k] for k in range(b - 2, b + 3) if k in profile]
            if int(b) not in profile or not nearby:
                continue
            expected = min(g for g, _ in nearby)
            dark = band & (bins == b) & (gray < expected - INK_DISTANCE)
            repair |= dark
            colours[dark] = profile[int(b)][1].astype(np.uint8)
    return repair, colours


def _lines_into(win: _Window) -> list[_Line]:
    """Thin lines in the ring whose ray enters the region, followed across it."""
    inside, outside_thin, ring = win.inside, win.thin & ~win.in_labels, win.ring
    segments = find_segments(outside_thin & ring, min_length=max(6, win.margin * 0.5))
    if not segments:
        return []
    to_region = cv2.distanceTransform((~inside).astype(np.uint8), cv2.DIST_L2, 3)
    lines = []
    for segment in segments:
        near, far = sorted((segment.p0, segment.p1), key=lambda p: sample(to_region, p))
        if sample(to_region, near) > 3:
            continue
        u = Segment(far, near).unit()
        entry = _first_inside(inside, near, u, limit=5.0)
        if entry is None or _grazes(outside_thin & ring, near, u):
            continue
        exit_ = _last_inside(inside, entry, u)
        beyond = _beyond(win.margin)
        through = (
            ink_fraction(outside_thin, exit_, u, beyond) >= THROUGH_FRACTION
            and longest_gap(win.thin, entry, u, round(math.dist(entry, exit_))) < THROUGH_GAP
        )
        lines.append(_Line(far, entry, exit_, u, min(segment.width, 6.0), through))
    return _merge_duplicates(lines)


def _grazes(strokes: np.ndarray, near: Point, u: Point, radius: int = 6) -> bool:
    """Does the stroke carry on outside the region right behind ``near``?

    A line entering a box has nothing behind its entry point but the box itself.
    A curve of the drawing that grazes the box (a round outline touching it) goes
    on outside the box on the other side: it is drawing, not a line into the label.
    """
    x, y = round(near[0]), round(near[1])
    y0, x0 = max(0, y - radius), max(0, x - radius)
    ys, xs = np.nonzero(strokes[y0 : y + radius + 1, x0 : x + radius + 1])
    dx, dy = xs + x0 - near[0], ys + y0 - near[1]
    behind = (dx * u[0] + dy * u[1] > 1.5) & (dx * dx + dy * dy <= radius * radius)
    return int(behind.sum()) >= 3


def _merge_duplicates(lines: list[_Line]) -> list[_Line]:
    """Merge the two edges of one stroke (LSD finds both) into one centre line.

    Each edge's centre estimate is off by a fraction of a pixel in opposite
    directions; averaging them keeps the protected band narrow, so less glyph ink
    survives where a line crosses text.
    """
    merged: list[_Line] = []
    for line in lines:
        for i, kept in enumerate(merged):
            if kept.u[0] * line.u[0] + kept.u[1] * line.u[1] < math.cos(math.radians(3)):
                continue
            dx, dy = line.entry[0] - kept.entry[0], line.entry[1] - kept.entry[1]
            across = dx * -kept.u[1] + dy * kept.u[0]
            if abs(across) > 2.0:
                continue
            shift = (-kept.u[1] * across / 2, kept.u[0] * across / 2)
            merged[i] = _Line(
                _moved(kept.far, shift),
                _moved(kept.entry, shift),
                _moved(kept.exit, shift),
                kept.u,
                max(kept.width, line.width),
                kept.through or line.through,
            )
            break
        else:
            merged.append(line)
    return merged


def _moved(point: Point, shift: Point) -> Point:
    return (point[0] + shift[0], point[1] + shift[1])


def _stub_end(thin: np.ndarray, core: np.ndarray, line: _Line) -> Point:
    """Where a line that does not leave the region stops being protected.

    If the line runs unbroken across the text and carries on in the box's margin beyond
    it (an OCR box that swallowed the end of a line crossing the label, reading it as
    a dash), it is a crossing line and is kept to its last pixel; broken by the gaps
    between letters, it is one of two collinear leaders. Otherwise it is a
    leader ending at the label: kept as far as its pixels go, but never into the
    text itself.
    """
    length = int(math.dist(line.entry, line.exit))
    in_core = [bool(sample(core, ahead(line.entry, line.u, t))) for t in range(length + 1)]
    reach = walk(thin, line.entry, line.u, max_steps=max(1, length), max_gap=1)
    if not any(in_core):
        return reach
    first = in_core.index(True)
    last = first
    while last + 1 <= length and in_core[last + 1]:
        last += 1
    after = ahead(line.entry, line.u, last)
    margin = length - last
    unbroken = longest_gap(thin, ahead(line.entry, line.u, first), line.u, last - first)
    if (
        margin >= 3
        and unbroken < THROUGH_GAP
        and ink_fraction(thin, after, line.u, min(8, margin)) >= THROUGH_FRACTION
    ):
        return walk(thin, after, line.u, max_steps=margin, max_gap=1)
    stop = max(0, min(first - 1, int(math.dist(line.entry, reach))))
    return ahead(line.entry, line.u, stop)


def _text_cores(glyphs: np.ndarray, boxes: list[PixelBox], origin: tuple[int, int]) -> np.ndarray:
    """Per box, the tight rectangle around its glyph ink (leaders stop there)."""
    core = np.zeros(glyphs.shape, bool)
    ox, oy = origin
    for bx0, by0, bx1, by1 in boxes:
        sub = glyphs[by0 - oy : by1 - oy, bx0 - ox : bx1 - ox]
        ys, xs = np.nonzero(sub)
        if len(xs) < 4:
            continue
        core[
            by0 - oy + ys.min() : by0 - oy + ys.max() + 1,
            bx0 - ox + xs.min() : bx0 - ox + xs.max() + 1,
        ] = True
    return core


def _drawing_ink(
    ink: np.ndarray, inside: np.ndarray, in_labels: np.ndarray, height: int
) -> np.ndarray:
    """Ink belonging to the drawing: components reaching well outside the boxes."""
    count, comp = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros(ink.shape, bool)
    inner = np.bincount(comp[inside], minlength=count)
    outer = np.bincount(comp[~in_labels], minlength=count)
    keep = outer >= np.maximum(height, 0.5 * inner)
    keep[0] = False
    return keep[comp]


def _connected_to(seed: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """``seed`` grown through the components of ``allowed`` that it touches."""
    count, comp = cv2.connectedComponents((allowed | seed).astype(np.uint8), connectivity=8)
    touched = np.zeros(count, bool)
    touched[np.unique(comp[seed])] = True
    touched[0] = False
    return touched[comp] | seed


def _background(crop: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """Median colour of the ring (white if the ring is empty, e.g. a whole-image box)."""
    if pixels.sum() < 8:
        return np.array([255.0, 255.0, 255.0], np.float32)
    return np.median(crop[pixels], axis=0).astype(np.float32)


def _is_white(crop: np.ndarray, pixels: np.ndarray, background: np.ndarray) -> bool:
    """Is the ring around the label white paper (so a white fill is exact)?"""
    if pixels.sum() < 8:
        return True
    white_share = (crop[pixels] >= WHITE_LEVEL).all(axis=1).mean()
    return bool((background >= WHITE_LEVEL).all() and white_share >= 0.85)


# --- small helpers -----------------------------------------------------------------


def _check_image(rgb: np.ndarray) -> None:
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3:
        raise ValueError("expected an H×W×3 uint8 RGB array")
    if rgb.dtype != np.uint8:
        raise ValueError(f"expected an H×W×3 uint8 RGB array, got dtype {rgb.dtype}")


def _clamp(box: Sequence[float], shape: tuple[int, ...]) -> PixelBox | None:
    """Integer box clipped to the image; None when nothing of it is left."""
    if len(box) != 4:
        raise ValueError(f"a box is (x0, y0, x1, y1), got {box!r}")
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(shape[1], math.ceil(box[2])), min(shape[0], math.ceil(box[3]))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _label_mask(shape: tuple[int, ...], boxes: list[PixelBox]) -> np.ndarray:
    mask = np.zeros(shape[:2], bool)
    for x0, y0, x1, y1 in boxes:
        mask[y0:y1, x0:x1] = True
    return mask


def _regions(labels: np.ndarray, boxes: list[PixelBox]) -> list[tuple[np.ndarray, list[PixelBox]]]:
    """Groups of overlapping or touching boxes, each with its pixel mask."""
    _, comp = cv2.connectedComponents(labels.astype(np.uint8), connectivity=8)
    groups: dict[int, list[PixelBox]] = {}
    for box in boxes:
        groups.setdefault(int(comp[box[1], box[0]]), []).append(box)
    return [(comp == k, members) for k, members in groups.items()]


def _first_inside(inside: np.ndarray, start: Point, u: Point, limit: float) -> Point | None:
    for s in np.arange(0.0, limit + 0.5, 0.5):
        point = ahead(start, u, float(s))
        if sample(inside, point):
            return point
    return None


def _last_inside(inside: np.ndarray, entry: Point, u: Point) -> Point:
    """Last point of the ray from ``entry`` still inside the region."""
    last = entry
    limit = inside.shape[0] + inside.shape[1]
    for s in np.arange(0.5, limit, 0.5):
        point = ahead(entry, u, float(s))
        x, y = round(point[0]), round(point[1])
        if not (0 <= x < inside.shape[1] and 0 <= y < inside.shape[0]) or not inside[y, x]:
            break
        last = point
    return last
