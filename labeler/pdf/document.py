"""Open source documents and render pages.

Curators feed Labeler whatever they have: PDFs (sometimes encrypted or broken),
SVG exports and plain images. Everything is normalised to a ``pymupdf.Document``
that behaves like a PDF, so the rest of the core needs only one code path, and
every way an input can be unusable becomes a :class:`DocumentError` whose message
says what to do (a missing or wrong password is the subclass
:class:`~labeler.errors.PasswordRequired`, so front ends can ask for one).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pymupdf

from labeler.errors import DocumentError, PasswordRequired
from labeler.pdf.limits import (
    check_image_size,
    check_pixels,
    check_regular_file,
    guarded,
    mupdf_errors,
)
from labeler.pdf.svg_paint import drawable_svg

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg"}
SVG_SUFFIXES = {".svg"}


def open_document(path: str | os.PathLike[str], password: str | None = None) -> pymupdf.Document:
    """Open a PDF, SVG, PNG or JPEG file as a PDF document.

    SVG and images are converted in memory into a one-page PDF so that text,
    drawings and redaction work the same as for born-digital pages.
    """
    file = Path(path)
    check_regular_file(file)
    suffix = file.suffix.lower()
    if suffix in SVG_SUFFIXES | IMAGE_SUFFIXES:
        return _convert_to_pdf(file)
    try:
        with open(file, "rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise DocumentError(f"{file}: cannot be read ({exc.strerror})") from None
    if b"%PDF-" not in head:
        raise DocumentError(
            f"{file}: not a PDF (no %PDF header); Labeler opens PDF, SVG, PNG and JPEG files"
        )
    try:
        doc = pymupdf.open(file, filetype="pdf")
    except Exception as exc:  # MuPDF raises its own types for every kind of damage
        raise DocumentError(f"{file}: the PDF is damaged and cannot be read ({exc})") from exc
    with mupdf_errors(file, "reading its page tree"):
        if doc.needs_pass:
            if password is None:
                raise PasswordRequired(f"{file}: the PDF is encrypted; its password is needed")
            if not doc.authenticate(password):
                raise PasswordRequired(f"{file}: wrong password for this encrypted PDF")
        if doc.page_count == 0:
            raise DocumentError(f"{file}: the PDF has no pages")
        _check_page_tree(doc, file)
    return doc


def _check_page_tree(doc: pymupdf.Document, file: Path) -> None:
    """Load every page once, so a lying ``/Count`` or a cycle fails here, with the file named,
    rather than half way through a curator's work."""
    count = doc.page_count
    for number in range(count):
        try:
            doc.load_page(number)
        except ValueError:  # pymupdf's "page not in document": the tree lied about its size
            raise DocumentError(
                f"{file}: the PDF claims {count} pages but page {number + 1} cannot be found"
                " (a damaged page tree); re-save it with a viewer or `mutool clean`"
            ) from None


def _convert_to_pdf(file: Path) -> pymupdf.Document:
    """SVG/PNG/JPEG -> one-page in-memory PDF (MuPDF converts both kinds the same way).

    A picture's size is read from its header first: MuPDF decodes the whole bitmap before
    anything can refuse it, so a 30,000 × 30,000 PNG would cost gigabytes.
    """
    if file.suffix.lower() in IMAGE_SUFFIXES:
        _check_picture_header(file)
    try:
        source = open_svg(file) if file.suffix.lower() in SVG_SUFFIXES else pymupdf.open(file)
        # named after the file so that every later message can name it
        pdf = pymupdf.open(str(file), stream=source.convert_to_pdf(), filetype="pdf")
    except Exception as exc:
        raise DocumentError(f"{file}: cannot read this {file.suffix} file ({exc})") from exc
    if pdf.page_count == 0:
        raise DocumentError(f"{file}: the file has no content to show")
    return pdf


def open_svg(file: Path) -> pymupdf.Document:
    """An SVG as MuPDF reads it, its gradients and style sheets first rewritten into paint
    MuPDF draws (:mod:`labeler.pdf.svg_paint`; MuPDF would fill those shapes black).

    A file needing no rewrite is opened by name, so relative image references resolve.
    """
    rewrite = drawable_svg(file.read_bytes())
    if not rewrite.changed:
        return pymupdf.open(file)
    return pymupdf.open(stream=rewrite.data, filetype="svg")


def _check_picture_header(file: Path) -> None:
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the budget decides
            with Image.open(file) as img:
                width, height = img.size
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise DocumentError(f"{file}: cannot read this {file.suffix} file ({exc})") from None
    except Image.DecompressionBombError:
        width, height = 10**6, 10**6  # PIL's own bomb check fired: far beyond any budget
    check_image_size(width, height, str(file))


@guarded("loading a page")
def get_page(doc: pymupdf.Document, page: int) -> pymupdf.Page:
    """The 1-based ``page`` of ``doc``, or a DocumentError naming the valid range."""
    if not 1 <= page <= doc.page_count:
        raise DocumentError(
            f"page {page} does not exist; the document has pages 1-{doc.page_count}"
        )
    return doc[page - 1]


@guarded("reading its page sizes")
def page_sizes(doc: pymupdf.Document) -> list[tuple[float, float]]:
    """Width and height in points of every page, without rendering anything."""
    # pymupdf's Document iterates through __getitem__/__len__, which mypy does not see
    return [(p.rect.width, p.rect.height) for p in doc]  # type: ignore[attr-defined]


def render_pixmap(
    page: pymupdf.Page, dpi: int, clip: pymupdf.Rect | None = None, *, annots: bool = True
) -> pymupdf.Pixmap:
    """Render ``clip`` (whole page if None) on white, RGB without alpha.

    ``annots=False`` leaves out annotations (a reader's highlights and notes). The pixel
    budget is checked first (MuPDF would allocate before failing).
    """
    area = page.rect if clip is None else pymupdf.Rect(clip) & page.rect
    name = page.parent.name or "the document"
    check_pixels(area.width, area.height, dpi, f"{name} page {page.number + 1}")
    with mupdf_errors(name, f"rendering page {page.number + 1}"):
        return page.get_pixmap(
            dpi=dpi, clip=clip, alpha=False, colorspace=pymupdf.csRGB, annots=annots
        )


def render_page(
    doc: pymupdf.Document,
    page: int,
    dpi: int,
    clip: tuple[float, float, float, float] | None = None,
) -> bytes:
    """PNG bytes of 1-based ``page`` (or its ``clip``, in points) at ``dpi``."""
    if dpi <= 0:
        raise DocumentError(f"dpi must be positive, not {dpi}")
    target = get_page(doc, page)
    rect = None if clip is None else pymupdf.Rect(clip)
    return render_pixmap(target, dpi, rect).tobytes("png")
