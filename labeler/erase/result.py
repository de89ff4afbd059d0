"""What one erasure produces: the question/answer images, the vector question and the key."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from labeler.pdf.content import Box, Point


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


@dataclass(frozen=True)
class EraseResult:
    """The outcome of :func:`labeler.erase.erase_figure` for one clip."""

    question_png: bytes
    answer_png: bytes
    question_pdf: bytes
    labels: list[HarvestedLabel]
    method: str
    clip: Box
    dpi: int
    kept: list[str] = field(default_factory=list)  # text left on the image (captions, markers, keep)
