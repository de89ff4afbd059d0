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
    question_png: bytes | None, question_pdf: bytes | None, *, ocr: bool
) -> tuple[str, str]:
    """Everything readable in the question (its words) and how it was read (``method``)."""
    texts: list[str] = []
    method = "pdf-text"
    if question_pdf:
        import pymupdf

        with pymupdf.open("pdf", question_pdf) as doc:
            texts.extend(page.get_text() for page in doc)
    if ocr and question_png:
        from PIL import Image

        from labeler.erase.ocr import read_text

        rgb = np.asarray(Image.open(io.BytesIO(question_png)).convert("RGB"))
        texts.extend(box.text for box in read_text(rgb))
        method = "pdf-text+ocr"
    return _words(" ".join(texts)), method


def readable_in(names: Sequence[str], words: str) -> list[str]:
    """The ``names`` that appear as whole words in ``words`` (from :func:`read_question`)."""
    seen = f" {words} "
    return [n for n in names if len(form := _words(n)) >= MIN_NAME and f" {form} " in seen]


def _words(text: str) -> str:
    """Lower-case words separated by single spaces: the form both sides are compared in."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_NON_WORD.sub(" ", folded).split())


_NON_WORD = re.compile(r"[\W_]+")
