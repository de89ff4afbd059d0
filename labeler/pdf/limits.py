"""Guards that keep a hostile or broken document from crashing or exhausting Labeler.

MuPDF fails on such input with its own exception types (``FzErrorBase`` subclasses,
``RuntimeError("code=N: …")``) raised from whatever call first touches the damage:
opening, counting pages, loading a page, extracting text or rendering. And it only
fails after allocating: a 14,400 pt page at 200 dpi asks for a 1.6 gigapixel bitmap.
So the pixel budget and the page/clip sanity are checked *before* MuPDF is asked,
and :func:`mupdf_errors` turns what MuPDF still raises into a :class:`DocumentError`
that names the file and says what to do.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import math
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import ParamSpec, TypeVar

import pymupdf

from labeler.errors import DocumentError

P = ParamSpec("P")
R = TypeVar("R")

# 100 megapixels: an A0 poster at 200 dpi is 62 Mpx; 100 Mpx of RGB is 300 MB.
MAX_PIXELS = 100_000_000
# The PDF specification's largest page side is 14,400 pt; beyond this a clip is not a
# position on any page but garbage (1e308 overflows MuPDF's float arithmetic).
MAX_COORD = 1_000_000.0
_FIX = (
    "choose a smaller --clip or a lower --dpi, or export the figure from the source"
    " at a normal page size"
)


def check_pixels(width_pt: float, height_pt: float, dpi: int, what: str) -> None:
    """Refuse a render of ``width_pt`` × ``height_pt`` points at ``dpi`` beyond the budget."""
    scale = dpi / 72
    width, height = math.ceil(width_pt * scale), math.ceil(height_pt * scale)
    if not (math.isfinite(width_pt) and math.isfinite(height_pt)) or width * height > MAX_PIXELS:
        raise DocumentError(
            f"{what}: {width_pt:g} × {height_pt:g} pt at {dpi} dpi would be a"
            f" {width:,} × {height:,} pixel image, more than Labeler's"
            f" {MAX_PIXELS // 1_000_000} megapixel budget; {_FIX}"
        )


def check_image_size(width_px: int, height_px: int, what: str) -> None:
    """Refuse a picture whose decoded size alone is beyond the budget (a decompression bomb)."""
    if width_px * height_px > MAX_PIXELS:
        raise DocumentError(
            f"{what}: the image is {width_px:,} × {height_px:,} pixels, more than Labeler's"
            f" {MAX_PIXELS // 1_000_000} megapixel budget; scale it down or crop the figure first"
        )


def check_clip(clip: Sequence[float]) -> tuple[float, float, float, float]:
    """Four finite, ordered numbers within any page's reach, or a DocumentError saying so."""
    if len(clip) != 4:
        raise DocumentError(f"a clip needs four numbers x0,y0,x1,y1, not {list(clip)}")
    try:
        x0, y0, x1, y1 = (float(v) for v in clip)
    except (TypeError, ValueError):
        raise DocumentError(f"a clip needs four numbers x0,y0,x1,y1, not {list(clip)}") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_COORD for v in (x0, y0, x1, y1)):
        raise DocumentError(
            f"clip {list(clip)} is not a position on a page (every number must be finite and"
            f" at most {MAX_COORD:,.0f} pt); clips are PDF points, top-left origin"
        )
    if x1 <= x0 or y1 <= y0:
        raise DocumentError(
            f"clip {list(clip)} is empty or reversed; give x0,y0,x1,y1 with x0 < x1 and y0 < y1"
        )
    return x0, y0, x1, y1


def check_page_boxes(page: pymupdf.Page, what: str) -> None:
    """A page whose MediaBox is empty, inverted or absurd cannot be erased or rendered."""
    media, crop = page.mediabox, page.cropbox
    sides = (media.width, media.height, page.rect.width, page.rect.height)
    if not all(math.isfinite(v) and 1 <= v <= MAX_COORD for v in sides) or not (
        media.contains(crop) or crop.is_empty
    ):
        raise DocumentError(
            f"{what}: the page's size boxes are broken (MediaBox {list(media)}, CropBox"
            f" {list(crop)}); re-save the PDF with a viewer or `mutool clean` and try again"
        )


def check_regular_file(file: Path) -> None:
    """Name what ``file`` is when it is not a regular file (a FIFO would block a read forever,
    ``/dev/zero`` would fill memory, a symlink loop has no target)."""
    try:
        mode = file.stat().st_mode
    except FileNotFoundError:
        raise DocumentError(f"{file}: no such file; check the path") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DocumentError(
                f"{file}: is a symbolic link loop (it points back to itself); fix the link"
            ) from None
        if exc.errno == errno.EACCES:
            raise DocumentError(f"{file}: permission denied; check the file's rights") from None
        raise DocumentError(f"{file}: cannot be read ({exc.strerror})") from None
    kinds = (
        (stat.S_ISDIR, "a folder, not a document"),
        (stat.S_ISFIFO, "a named pipe (FIFO), not a document"),
        (stat.S_ISCHR, "a character device, not a document"),
        (stat.S_ISBLK, "a block device, not a document"),
        (stat.S_ISSOCK, "a socket, not a document"),
    )
    for test, kind in kinds:
        if test(mode):
            raise DocumentError(f"{file}: is {kind}; pass a PDF, SVG, PNG or JPEG file")
    if not os.access(file, os.R_OK):
        raise DocumentError(f"{file}: permission denied; check the file's rights")


def is_mupdf_error(exc: BaseException) -> bool:
    """Whether ``exc`` is MuPDF refusing the input (its own types, or pymupdf's
    ``RuntimeError("code=N: …")`` wrapping of them), as opposed to a bug in Labeler."""
    if isinstance(exc, pymupdf.mupdf.FzErrorBase | pymupdf.FileDataError):
        return True
    if type(exc) is RuntimeError and str(exc).startswith("code="):
        return True
    # pymupdf checks damaged structures itself and raises ValueError ("bad page number(s)"
    # when a repaired page tree shrank); raised inside pymupdf, it is about the input.
    return isinstance(exc, ValueError) and _raised_in(exc, Path(pymupdf.__file__).parent)


def _raised_in(exc: BaseException, package: Path) -> bool:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and Path(tb.tb_frame.f_code.co_filename).is_relative_to(package)


def guarded(doing: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a function whose first argument is a ``pymupdf.Document`` so that MuPDF's
    failures inside it become a DocumentError naming the document (see :func:`mupdf_errors`)."""

    def wrap(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def guarded_call(*args: P.args, **kwargs: P.kwargs) -> R:
            doc = args[0]
            with mupdf_errors(getattr(doc, "name", "") or "the document", doing):
                return function(*args, **kwargs)

        return guarded_call

    return wrap


@contextlib.contextmanager
def mupdf_errors(name: str | os.PathLike[str], doing: str = "reading it") -> Iterator[None]:
    """Turn a MuPDF failure (or running out of memory) inside the block into a DocumentError
    naming ``name``; every other exception is a bug and passes through unchanged."""
    try:
        yield
    except MemoryError:
        raise DocumentError(
            f"{name}: ran out of memory while {doing}; the document is too large or damaged."
            f" {_FIX[0].upper()}{_FIX[1:]}"
        ) from None
    except Exception as exc:
        if not is_mupdf_error(exc):
            raise
        detail = str(exc).removeprefix("code=").partition(": ")[2] or str(exc)
        raise DocumentError(
            f"{name}: MuPDF failed while {doing} ({detail}); the document is damaged or"
            " hostile. Re-save it with a viewer or `mutool clean`, or pick another page"
        ) from exc
