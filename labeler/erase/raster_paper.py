"""A pale drawing behind labels printed on paper: told apart from the letters and kept.

The membrane figure's pale filaments run behind black words; the words go, the filaments run on
across the erased box (see ``pale_drawing_behind``).
"""

from __future__ import annotations

import cv2
import numpy as np

from labeler.erase.raster_window import Window

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


def pale_drawing_behind(
    win: Window, ink: np.ndarray, glyph: np.ndarray, paper: np.ndarray
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


def fill_over_drawing(
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
