"""Scanning a born-digital book for labelled figures, per page and for 1,000 pages.

Builds an N-page book from the sample textbook's eight figure pages interleaved with pages
of body text (two of every three pages are text, as in a textbook), then times
:func:`labeler.scan.scan_document` over it against the bare cost of reading every page's
characters and drawings with pymupdf (``get_text("rawdict")`` + ``get_drawings()``), which any
scan must pay. Goal: a 1,000-page book in <= 5 min on 2 cores. Wall and CPU seconds
(``time.process_time``: the scan runs in this process) are both printed, with the load.

    python bench/scan.py [--pages 300]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.data import SAMPLE_BOOK, data_file
from labeler.scan import scan_document

BODY = (
    "Cells are the smallest units of life. Each is bounded by a membrane and holds the "
    "machinery that reads its genes and builds its proteins. "
) * 30


def build_book(pages: int, folder: Path) -> Path:
    sample = pymupdf.open(data_file(SAMPLE_BOOK))
    doc = pymupdf.open()
    for n in range(pages):
        if n % 3 == 2:
            doc.insert_pdf(
                sample, from_page=n // 3 % sample.page_count, to_page=n // 3 % sample.page_count
            )
        else:
            page = doc.new_page()
            page.insert_text((72, 60), f"Chapter {n // 30 + 1}", fontsize=14)
            page.insert_textbox(pymupdf.Rect(72, 80, 540, 760), BODY, fontsize=10)
    path = folder / "book.pdf"
    doc.save(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        book = build_book(args.pages, Path(tmp))
        start, cpu = time.perf_counter(), time.process_time()
        doc = pymupdf.open(book)
        for page in doc:
            page.get_text("rawdict")
            page.get_drawings()
        bare, bare_cpu = time.perf_counter() - start, time.process_time() - cpu
        start, cpu = time.perf_counter(), time.process_time()
        found = scan_document(book)
        scan, scan_cpu = time.perf_counter() - start, time.process_time() - cpu
    per_page = scan / args.pages
    print(f"{args.pages} pages, {len(found)} figures found, load {os.getloadavg()}")
    print(f"scan {scan:.2f} s ({per_page * 1000:.1f} ms/page), bare read {bare:.2f} s")
    print(f"CPU: scan {scan_cpu:.2f} s, bare read {bare_cpu:.2f} s ({scan_cpu / bare_cpu:.1f}x)")
    print(
        f"ratio {scan / bare:.1f}x; 1,000 pages at this rate: {per_page * 1000:.0f} s "
        "(goal <= 300 s)"
    )


if __name__ == "__main__":
    main()
