"""Hostile and broken documents, built here with pymupdf and by hand (no fixtures on disk).

Each builder writes one file into ``folder`` and returns its path. Byte patches keep their
length so the cross-reference table stays valid: the damage is the only thing wrong.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pymupdf


def small_pdf(width: float = 612, height: float = 792) -> bytes:
    """One vector page: two printed labels with leader lines (what Labeler erases)."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    for y, name in ((120, "aorta"), (200, "left ventricle")):
        page.insert_text((60, y), name, fontsize=11)
        page.draw_line((140, y - 4), (300, 300))
    page.draw_circle((320, 320), 60)
    return doc.tobytes()


def _patched(old: bytes, new: bytes) -> bytes:
    data = small_pdf()
    assert len(old) == len(new) and old in data, old
    return data.replace(old, new)


def _png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\0" * (width * 3 + 1) * 4)  # four rows; the rest is missing
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def _nested_states(depth: int) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((60, 100), "aorta")
    xref = page.get_contents()[0]
    body = b"q " * depth + b"BT /helv 11 Tf 60 600 Td (deep) Tj ET " + b"Q " * depth
    doc.update_stream(xref, body)
    return doc.tobytes()


def _write(name: str, data: bytes | str) -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path

    return build


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.pdf"
    os.mkfifo(path)
    return path


def _loop(folder: Path) -> Path:
    path = folder / "loop.pdf"
    os.symlink(folder / "loop2.pdf", path)
    os.symlink(path, folder / "loop2.pdf")
    return path


def _zero(folder: Path) -> Path:
    path = folder / "zero.pdf"
    os.symlink("/dev/zero", path)
    return path


def _folder(folder: Path) -> Path:
    path = folder / "chapter.pdf"
    path.mkdir()
    return path


HUGE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="1000000pt" height="1000000pt">'
    '<line x1="0" y1="0" x2="100" y2="100" stroke="black"/><text x="10" y="20">A</text></svg>'
)

# name -> (builder, a word the error message must contain)
CASES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "page-14400pt": (_write("poster.pdf", small_pdf(14400, 14400)), "megapixel budget"),
    "svg-1e6pt": (_write("huge.svg", HUGE_SVG), "megapixel budget"),
    "png-30000px": (_write("huge.png", _png_header(30000, 30000)), "megapixel budget"),
    "png-12000px": (_write("big.png", _png_header(12000, 12000)), "megapixel budget"),
    "lying-page-count": (_write("lying.pdf", _patched(b"/Count 1/", b"/Count 9/")), "pages"),
    "page-tree-cycle": (_write("cycle.pdf", _patched(b"/Kids[4 0 R]", b"/Kids[2 0 R]")), "cycle"),
    "nested-graphics-states": (_write("nested.pdf", _nested_states(5000)), "nested"),
    "negative-mediabox": (
        _write("negative.pdf", _patched(b"[0 0 612 792]", b"[0 0 -61 -79]")),
        "MediaBox",
    ),
    "fifo": (_fifo, "named pipe"),
    "dev-zero": (_zero, "character device"),
    "symlink-loop": (_loop, "symbolic link loop"),
    "folder": (_folder, "folder"),
}


def repaired_pdf() -> bytes:
    """The small PDF with a wrong ``startxref``: MuPDF rebuilds the table and opens it."""
    data = small_pdf()
    cut = data.rindex(b"startxref")
    return data[:cut] + b"startxref\n999\n%%EOF\n"


def unreadable_text_pdf() -> bytes:
    """Labels whose font maps every code to a space: printed, but no text can be read."""
    doc = pymupdf.open(stream=small_pdf(), filetype="pdf")
    font = doc.get_page_fonts(0)[0][0]
    blocks = "".join(
        "64 beginbfchar\n"
        + "".join(f"<{code:02X}> <0020>\n" for code in range(start, start + 64))
        + "endbfchar\n"
        for start in range(0, 256, 64)
    )
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Lost def\n"
        f"1 begincodespacerange <00> <FF> endcodespacerange\n{blocks}"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, cmap.encode())
    doc.xref_set_key(font, "ToUnicode", f"{xref} 0 R")
    return doc.tobytes()


def blank_page_pdf() -> bytes:
    """A page whose content stream is garbage: MuPDF draws nothing and says nothing."""
    doc = pymupdf.open(stream=small_pdf(), filetype="pdf")
    for xref in doc[0].get_contents():
        doc.update_stream(xref, b"q 1 0 0 1 0 0 cm ((((( BT /helv Tf [<<")
    return doc.tobytes()
