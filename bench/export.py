"""Bench: ``labeler export`` at 10k and 100k answers, against writing the same rows.

The floor is what an export cannot avoid: ``json.dumps`` of every row of the export's
``results.jsonl`` and ``items.jsonl`` (the rows read back from its own output) written to a
file, in CPU seconds of this process. The export is measured as a whole fresh process (its
interpreter start and imports included), twice: first on a project with no cached scores
(it scores every answer once and keeps the scores) and again (every score read back from
the cache). Goal (issue #17): export ÷ floor ≤ 3; peak RSS bounded.

Run: ``python bench/export.py`` (both sizes) or ``python bench/export.py 10000``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import SIZES, Usage, fresh_project, labeler, run


def floor(folder: Path) -> float:
    """CPU seconds of ``json.dumps`` + write of the export's rows (read back first, untimed)."""
    rows = [
        json.loads(line)
        for name in ("results.jsonl", "items.jsonl")
        for line in (folder / name).read_text(encoding="utf-8").splitlines()
    ]
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        with open(folder.parent / "floor.jsonl", "w", encoding="utf-8") as out:
            out.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        best = min(best, time.process_time() - start)
    return best


def line(label: str, usage: Usage, base: float) -> str:
    return (
        f"  {label:<26} {usage.cpu:7.2f} s CPU  ({usage.cpu / base:5.1f}x floor)"
        f"  wall {usage.wall:6.2f} s  peak RSS {usage.peak_mib:6.0f} MiB"
    )


def main(sizes: tuple[int, ...]) -> None:
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            project = fresh_project(n, Path(tmp))
            cold = run(labeler("export", str(project), "--out", f"{tmp}/out1"))
            warm = run(labeler("export", str(project), "--out", f"{tmp}/out2"))
            base = floor(Path(tmp) / "out2")
            rows = len(Path(f"{tmp}/out2/results.jsonl").read_text(encoding="utf-8").splitlines())
        print(f"== {n:,} answers ({rows:,} exported rows); floor json.dumps {base:.2f} s CPU")
        print(line("export, nothing cached", cold, base))
        print(line("export, scores cached", warm, base))
    print("goal: export <= 3x the json.dumps floor (CPU seconds)")


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or SIZES)
