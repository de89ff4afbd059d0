"""``labeler scan`` shows its progress page by page, and lists what issue #11 asks of each figure.

The list (stdout) and the file (``--out``) give each figure's page, region, number of labels,
leader-line evidence and caption; the progress bar (stderr) counts the scanned pages and is
left out with ``--quiet``.
"""

from __future__ import annotations

import json
import subprocess
import sys

from labeler.data import SAMPLE_BOOK, data_file
from labeler.samples.book import layout
from labeler.scan import scan_document


def _scan(*args: object) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "labeler", "scan", data_file(SAMPLE_BOOK), *args]
    return subprocess.run(list(map(str, argv)), capture_output=True, text=True, check=True)


def test_the_progress_bar_counts_the_pages(tmp_path):
    shown = _scan("--pages", "2-4")
    assert "scanning" in shown.stderr and "3/3" in shown.stderr
    assert "Traceback" not in shown.stderr
    assert _scan("--pages", "2-4", "--quiet").stderr == ""


def test_every_page_is_reported_to_the_caller_once():
    seen: list[tuple[int, int]] = []
    scan_document(data_file(SAMPLE_BOOK), pages=[1, 2, 3], on_page=lambda *a: seen.append(a))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_each_figure_has_page_region_labels_leaders_and_caption(tmp_path):
    out = tmp_path / "figures.json"
    listed = _scan("--pages", "1-2", "--out", out, "--quiet").stdout
    heart = layout()[0]  # page 1 of the sample book: 6 labels, each with a leader line
    assert heart.page == 1 and len(heart.spec.labels) == 6
    assert "page 1" in listed and "6 labels, 6 with leader lines" in listed
    figure = json.loads(out.read_text())["figures"][0]
    assert figure["page"] == 1
    assert (figure["labels"], figure["with_leaders"]) == (6, 6)
    assert figure["caption"].startswith("Figure 1.")
    x0, y0, x1, y1 = figure["clip"]
    hx0, hy0, hx1, hy1 = heart.clip
    assert hx0 - 5 <= x0 < x1 <= hx1 + 5 and hy0 - 5 <= y0 < y1 <= hy1 + 5
