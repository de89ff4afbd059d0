"""Erase+render cost per figure, as a ratio to one bare ``get_pixmap(clip)`` of the figure.

Generates a 200-figure book with pymupdf (two labelled vector figures per page:
a drawing, 8 labels with leader lines, multi-line and rotated labels, and a
caption outside the clip), then times ``erase_figure`` (harvest, redaction,
question + answer renders, the vector question page) against one bare
render of the same clip at the same DPI. Goal: <= 2.5x. PNG and PDF bytes are
encoded lazily (on first access), so that cost is reported on its own line. The ratio is
given in wall and in CPU seconds (``time.process_time``) with the machine's load: on a
shared machine the CPU ratio is the one to trust.

    python bench/erase.py [--figures 200] [--dpi 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.erase import erase_figure

LABELS = (
    (("Nucleus",), (0, 40), (43, 36), (230, 135)),
    (("Endoplasmic", "reticulum"), (0, 180), (66, 176), (180, 160)),
    (("Mito-", "chondrion"), (0, 250), (53, 253), (200, 200)),
    (("Periosteum", "(membrane covering bone)"), (370, 40), (367, 36), (300, 90)),
    (("Cytoplasm",), (370, 220), (395, 216), (290, 182)),
    (("Golgi",), (370, 265), (367, 261), (270, 200)),
    (("Lysosome",), (370, 277), (367, 273), (260, 220)),
)


def draw_figure(page: pymupdf.Page, top: float, number: int) -> tuple[float, float, float, float]:
    """One labelled figure with its top edge at ``top``; returns its clip."""
    left = 40

    def at(x: float, y: float) -> tuple[float, float]:
        return (left + x, top + y)

    page.draw_circle(at(240, 140), 90, color=(0.1, 0.2, 0.6), fill=(0.85, 0.9, 1.0), width=1.5)
    page.draw_oval((*at(190, 100), *at(270, 170)), color=(0.3, 0.2, 0.5), fill=(0.6, 0.6, 0.8))
    for lines, origin, start, end in LABELS:
        page.draw_line(at(*start), at(*end), color=(0, 0, 0), width=0.8)
        for index, line in enumerate(lines):
            page.insert_text(at(origin[0], origin[1] + index * 11), line, fontsize=11)
    page.draw_line(at(236, 292), at(236, 232), color=(0, 0, 0), width=0.8)
    page.insert_text(at(240, 322), "Axon", fontsize=11, rotate=90)
    page.insert_text(at(0, 345), f"Figure {number}. A generic cell.", fontsize=10)
    return (left - 5, top, left + 520, top + 330)


def build_book(figures: int) -> tuple[pymupdf.Document, list[tuple[int, tuple]]]:
    doc = pymupdf.open()
    placed = []
    for number in range(1, figures + 1):
        if number % 2:
            page = doc.new_page(width=612, height=792)
        clip = draw_figure(page, 30 if number % 2 else 410, number)
        placed.append((doc.page_count, clip))
    return pymupdf.open("pdf", doc.tobytes()), placed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figures", type=int, default=200)
    parser.add_argument("--dpi", type=int, default=200)
    args = parser.parse_args()
    doc, placed = build_book(args.figures)
    erase_figure(doc, *placed[0][:1], clip=placed[0][1], dpi=args.dpi)  # warm-up (imports)
    bare_times, erase_times, encode_times, ratios = [], [], [], []
    bare_cpu = erase_cpu = 0.0
    for page, clip in placed:
        start, cpu = time.perf_counter(), time.process_time()
        doc[page - 1].get_pixmap(clip=clip, dpi=args.dpi)
        bare = time.perf_counter() - start
        bare_cpu += time.process_time() - cpu
        start, cpu = time.perf_counter(), time.process_time()
        result = erase_figure(doc, page, clip=clip, dpi=args.dpi)
        erased = time.perf_counter() - start
        erase_cpu += time.process_time() - cpu
        if len(result.labels) != len(LABELS) + 1:
            raise SystemExit(f"page {page}: harvested {len(result.labels)} labels, expected 8")
        start = time.perf_counter()
        _ = result.question_png, result.answer_png, result.question_pdf
        encode_times.append(time.perf_counter() - start)
        bare_times.append(bare)
        erase_times.append(erased)
        ratios.append(erased / bare)
    total = sum(erase_times) / sum(bare_times)
    with_encoding = (sum(erase_times) + sum(encode_times)) / sum(bare_times)
    print(f"figures: {len(placed)}  dpi: {args.dpi}  load: {os.getloadavg()}")
    print(f"bare get_pixmap(clip):      {1000 * statistics.mean(bare_times):.1f} ms/figure")
    print(f"erase_figure (erase+render): {1000 * statistics.mean(erase_times):.1f} ms/figure")
    print(f"encoding 2 PNGs + the PDF:  {1000 * statistics.mean(encode_times):.1f} ms/figure")
    print(f"ratio erase+render: {total:.2f}x (median per figure {statistics.median(ratios):.2f}x)")
    print(f"ratio including encoding: {with_encoding:.2f}x")
    print(
        f"CPU: bare {1000 * bare_cpu / len(placed):.1f} ms/figure, erase+render "
        f"{1000 * erase_cpu / len(placed):.1f} ms/figure, ratio {erase_cpu / bare_cpu:.2f}x"
    )
    print(f"goal erase+render <= 2.5x: {'met' if total <= 2.5 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
