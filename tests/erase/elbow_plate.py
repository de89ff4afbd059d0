"""Gray's elbow plate (plate 329, public domain): its printed key, written by eye.

Read off the PNG zoomed three times, before Labeler was run on it. Each label: the name as
printed (lines joined, abbreviations as engraved) and the box it covers in the PNG's own
pixels (313 × 650), generous by a few pixels. Many are written at an angle over hatching;
none has a leader line.
"""

from __future__ import annotations

import pymupdf

from tests.paths import EXTERNAL_FIGURES

PLATE = EXTERNAL_FIGURES / "elbow-joint-gray329.png"
WIDTH, HEIGHT = 313, 650

# (name as printed, (x0, y0, x1, y1) in PNG pixels)
PRINTED = [
    ("Humerus", (188, 58, 265, 115)),
    ("Medial epicondyle", (108, 128, 142, 178)),
    ("Olecranon", (18, 162, 65, 228)),
    ("Ulnar collateral lig.", (48, 178, 145, 255)),
    ("Posterior portion", (48, 212, 98, 265)),
    ("Anterior portion", (95, 250, 145, 285)),
    ("Anterior ligament", (148, 225, 275, 252)),
    ("Coronoid proc.", (98, 318, 188, 342)),
    ("Annular ligament", (163, 312, 268, 347)),
    ("Tubercle", (125, 373, 159, 440)),
    ("Oblique cord", (145, 416, 215, 544)),
    ("Bicipital tuberosity", (180, 400, 222, 504)),
    ("Radius", (195, 440, 255, 460)),
    ("Ulna", (95, 510, 145, 527)),
    ("Aperture for dors. inteross. vess.", (155, 500, 195, 584)),
]


def place(width: float = float(WIDTH), left: float = 40.0) -> tuple[pymupdf.Document, tuple]:
    """The plate pasted on a page ``width`` points wide; returns the document and the clip."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 40), "The elbow-joint", fontsize=14)
    target = pymupdf.Rect(left, 60, left + width, 60 + width * HEIGHT / WIDTH)
    page.insert_image(target, filename=str(PLATE))
    page.insert_text((54, target.y1 + 14), "Fig. 329. Left elbow-joint.", fontsize=9)
    return pymupdf.open("pdf", doc.tobytes()), tuple(target)


def to_png_pixels(box: tuple, clip: tuple) -> tuple[float, float, float, float]:
    """A box in page points, on the plate placed at ``clip``, in the PNG's pixels."""
    sx = WIDTH / (clip[2] - clip[0])
    sy = HEIGHT / (clip[3] - clip[1])
    return (
        (box[0] - clip[0]) * sx,
        (box[1] - clip[1]) * sy,
        (box[2] - clip[0]) * sx,
        (box[3] - clip[1]) * sy,
    )
