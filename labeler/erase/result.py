"""What one erasure produces: the question/answer images, the vector question and the key."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property

import numpy as np
import pymupdf

from labeler.erase.redact import strip_outside
from labeler.pdf.geometry import Box, Point


@dataclass(frozen=True)
class HarvestedLabel:
    """One answer-key entry as printed on the figure.

    ``text`` is the label phrase ("" for a marker whose name the curator
    supplies), ``bbox`` its box in PDF points (page coordinates), ``kind`` how it
    was printed (``vector``, ``outline`` or ``ocr``), ``anchor`` the point its
    leader line ends at, ``marker`` the letter when it is a marker.
    """

    text: str
    bbox: Box
    kind: str
    anchor: Point | None = None
    marker: str | None = None

    def to_json(self) -> dict:
        """The labels.json form: plain lists and rounded numbers."""
        data = asdict(self)
        data["bbox"] = [round(v, 2) for v in self.bbox]
        data["anchor"] = None if self.anchor is None else [round(v, 2) for v in self.anchor]
        return data


class Image:
    """A rendered RGB image whose PNG bytes are encoded on first use.

    PNG encoding costs several times the render itself, and a caller that only
    looks at the pixels (the GUI, a check) never needs it.
    """

    def __init__(self, source: pymupdf.Pixmap | np.ndarray) -> None:
        self._source = source

    @property
    def rgb(self) -> np.ndarray:
        """H×W×3 uint8 RGB pixels."""
        if isinstance(self._source, np.ndarray):
            return self._source
        pix = self._source
        return np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]

    @cached_property
    def png(self) -> bytes:
        """PNG bytes, by OpenCV for both sources: half the time of MuPDF's encoder."""
        import cv2

        if isinstance(self._source, np.ndarray):
            rgb = self._source
        else:  # a view of the pixmap's own memory, which this image keeps alive
            pix = self._source
            rgb = np.frombuffer(pix.samples_mv, np.uint8).reshape(pix.height, pix.width, pix.n)
        bgr = cv2.cvtColor(np.ascontiguousarray(rgb[:, :, :3]), cv2.COLOR_RGB2BGR)
        ok, data = cv2.imencode(".png", bgr)
        if not ok:
            raise RuntimeError("PNG encoding failed")
        return data.tobytes()


@dataclass(frozen=True)
class EraseResult:
    """The outcome of :func:`labeler.erase.erase_figure` for one clip.

    ``question_png``/``answer_png``/``question_pdf`` are bytes, encoded on
    first access (encoding costs more than erasing and rendering together);
    ``question``/``answer`` give the same images as pixels.
    """

    question: Image
    answer: Image
    question_document: pymupdf.Document  # one page, cropped to the clip
    labels: list[HarvestedLabel]
    method: str
    clip: Box
    dpi: int
    kept: list[str] = field(default_factory=list)  # text left printed: captions, panels, keep

    @cached_property
    def question_pdf(self) -> bytes:
        """The erased clip as a one-page vector PDF (serialised on first access).

        Only the clip's content is kept in the file (see ``strip_outside``): the
        crop box alone would still carry the page's caption and body text.
        """
        strip_outside(self.question_document[0], self.clip)
        return self.question_document.tobytes(garbage=3, deflate=True)

    @property
    def question_png(self) -> bytes:
        """The erased clip on white, as PNG."""
        return self.question.png

    @property
    def answer_png(self) -> bytes:
        """The original clip on white, as PNG."""
        return self.answer.png
