"""Harvest cost on a dense page, as a ratio to reading the same page's characters.

Builds a born-digital page with N words of body text (short lines, as a two-column textbook
page set small, plus labels with leader lines), then times the harvest steps a curator's
``add-item`` or a book scan runs on it — words into line fragments
(:func:`~labeler.harvest.fragments_from_spans`) and fragments into labels
(:func:`~labeler.harvest.group_labels` with the page's leaders) — against the bare cost of
``page.get_text("rawdict")`` on the same page (what reading the characters costs). Goal: a
5,000-word page harvests in <= 1 s on 2 cores, and the time grows linearly with the words.
Times are medians of wall seconds; the harvest's CPU seconds (``time.process_time``) are
printed next to them, with the machine's load.

    python bench/harvest.py [--words 500,2000,5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.harvest import LeaderIndex, fragments_from_spans, group_labels
from labeler.pdf.content import drawings, text_spans

WORDS = (
    "the",
    "heart",
    "pumps",
    "blood",
    "through",
    "arteries",
    "veins",
    "and",
    "capillaries",
    "of",
    "the",
    "body",
    "while",
    "the",
    "lungs",
    "exchange",
    "oxygen",
    "and",
    "carbon",
    "dioxide",
    "across",
    "thin",
    "alveolar",
    "walls",
    "lined",
    "by",
    "epithelial",
    "cells",
)


def dense_page(words: int, seed: int = 7) -> pymupdf.Document:
    """One page with ``words`` words: half as lines of body text in 4 columns, half scattered one
    word at a time with wide gaps (each its own fragment, like a crowded labelled figure), and 20
    labels with leader lines."""
    rng = random.Random(seed)
    size = 4.0 if words > 2500 else 6.0
    columns = 4
    per_line = 6
    lines = -(-words // per_line)
    rows = -(-lines // columns)
    height = max(792.0, 60 + rows * size * 1.25)
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=height)
    # one TextWriter for the page: the same Helvetica text as insert_text per line or word,
    # built in a fraction of a second instead of ~15 s for 5,000 words
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("helv")
    left_edges = [30 + c * 140 for c in range(columns)]
    written = 0
    for row in range(rows):
        for col in range(columns):
            if written >= words:
                break
            count = min(per_line, words - written)
            y = 40 + row * size * 1.25
            if row % 2:  # words far apart: one fragment each
                for n in range(count):
                    x = left_edges[col] + n * 22
                    writer.append((x, y), rng.choice(WORDS)[:3], font=font, fontsize=size)
            else:
                text = " ".join(rng.choice(WORDS) for _ in range(count))
                writer.append((left_edges[col], y), text, font=font, fontsize=size)
            written += count
    for n in range(20):
        y = 40 + n * (height - 80) / 20
        page.draw_line((585, y), (600, y + 3), width=0.7)
        writer.append((560, y + 2), f"Part{n}", font=font, fontsize=size)
    writer.write_text(page)
    return doc


def _time(fn, repeat: int) -> tuple[float, float]:
    """Median wall and median CPU seconds of ``repeat`` calls."""
    times, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(times), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", default="500,2000,5000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()}")
    print(
        f"{'words':>6} {'fragments':>9} {'labels':>6} {'harvest s':>9} {'CPU s':>6} "
        f"{'rawdict s':>9} ratio"
    )
    for words in (int(w) for w in args.words.split(",")):
        doc = dense_page(words)
        page = doc[0]
        spans = [s for s in text_spans(page) if s.plausible]
        leaders = LeaderIndex(drawings(page))
        found: dict[str, int] = {}

        def harvest(spans=spans, leaders=leaders, found=found) -> None:
            fragments = fragments_from_spans(spans)
            found["fragments"] = len(fragments)
            found["labels"] = len(group_labels(fragments, leaders))

        harvest_s, harvest_cpu = _time(harvest, args.repeat)
        bare_s, _ = _time(lambda page=page: page.get_text("rawdict"), args.repeat)
        print(
            f"{words:>6} {found['fragments']:>9} {found['labels']:>6} {harvest_s:>9.3f} "
            f"{harvest_cpu:>6.3f} {bare_s:>9.3f} {harvest_s / bare_s:5.1f}x"
        )


if __name__ == "__main__":
    main()
