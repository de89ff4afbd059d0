"""The residual-label check: is any key name still readable in the erased question?

Erasure can miss a label (text drawn twice, a glyph cluster it did not recognise, a raster
label over a texture) and a missed label turns a figure-reading question into a reading test.
So every stored question is read back the way a model could read it: the text layer of the
question PDF always, and OCR of the question image when the figure had outline or raster
labels (or when asked). Vector-text figures skip OCR — their labels live only in the text layer,
which the PDF check reads exactly, and loading the OCR engine costs seconds per process.

A key name counts as readable when its words appear, in order and as whole words, in what was
read (case, accents and punctuation aside); names shorter than three characters (marker
letters) are too easy to find by chance and are skipped.
"""

from __future__ import annotations

import io
import re
import threading
import unicodedata
from collections.abc import Sequence

import numpy as np

#: Erase methods whose labels only OCR can see again.
OCR_METHODS = ("outline", "ocr")
MIN_NAME = 3


def needs_ocr(erase_method: str) -> bool:
    """Whether a figure erased by ``erase_method`` must be read back by OCR."""
    return any(part in OCR_METHODS for part in erase_method.split("+"))


def read_question(
    question_png: bytes | None,
    question_pdf: bytes | None,
    *,
    ocr: bool,
    lines: Sequence[str] | None = None,
) -> tuple[str, str]:
    """Everything readable in the question (its words) and how it was read (``method``).

    ``lines`` are the OCR lines of the question's pixels when they were already read
    (:class:`BackgroundRead`); the PNG is then not decoded and read again.
    """
    texts: list[str] = []
    method = "pdf-text"
    if question_pdf:
        import pymupdf

        with pymupdf.open("pdf", question_pdf) as doc:
            texts.extend(page.get_text() for page in doc)
    if ocr and question_png:
        if lines is None:
            from PIL import Image

            lines = ocr_lines(np.asarray(Image.open(io.BytesIO(question_png)).convert("RGB")))
        texts.extend(lines)
        method = "pdf-text+ocr"
    return _words(" ".join(texts)), method


def ocr_lines(rgb: np.ndarray) -> list[str]:
    """The text lines OCR reads in a question's H×W×3 RGB pixels."""
    from labeler.erase.ocr import read_text

    return [box.text for box in read_text(rgb)]


class BackgroundRead:
    """:func:`ocr_lines` of a question's pixels, on a worker thread started at once.

    :meth:`lines` waits for the read and raises what it raised, so a caller that waits before
    committing stores nothing when the read fails. The thread is not a daemon: a read left
    unclaimed (the caller failed or was stopped first) ends before the interpreter does.
    """

    def __init__(self, rgb: np.ndarray) -> None:
        self._lines: list[str] = []
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._read, args=(rgb,), name="residual-ocr")
        self._thread.start()

    def _read(self, rgb: np.ndarray) -> None:
        try:
            self._lines = ocr_lines(rgb)
        except BaseException as exc:  # handed to the waiting caller by lines()
            self._error = exc

    def lines(self) -> list[str]:
        """The lines read, once the read has ended; its error, if it failed."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._lines


def readable_in(names: Sequence[str], words: str) -> list[str]:
    """The ``names`` that appear as whole words in ``words`` (from :func:`read_question`)."""
    seen = f" {words} "
    return [n for n in names if len(form := _words(n)) >= MIN_NAME and f" {form} " in seen]


def _words(text: str) -> str:
    """Lower-case words separated by single spaces: the form both sides are compared in."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_NON_WORD.sub(" ", folded).split())


_NON_WORD = re.compile(r"[\W_]+")
