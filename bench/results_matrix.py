"""How fast labeler.results opens the GUI's review matrix: 300 items × 6 models × 4 conditions.

Compares ``load_results`` (+ ``results_frame``) with the bare cost of the same
work: reading the latest responses from the store and scoring the same 7,200
name lists with one prebuilt lexicon. The first call pays that bare cost (plus
building the per-item lexicons); later calls reuse stored answers and scores
and only redo what changed. Target: reopening the matrix in < 1 s.
Run: ``python bench/results_matrix.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pandas  # noqa: F401 - imported up front, as in the GUI: its import is not the matrix's cost

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.lexicon import Lexicon
from labeler.prompts import CONDITIONS
from labeler.results import load_results, results_frame
from labeler.scoring import score_names
from labeler.store import KeyEntry, NewItem, NewResponse, Project

N_ITEMS, MODELS = 300, [f"lab/model-{n}" for n in range(6)]
WORDS = [f"structure{n:04d}" for n in range(2000)]


def build(folder: Path) -> Project:
    rng = random.Random(7)
    project = Project.create(folder, id_prefix="BENCH")
    # a global lexicon of 1,000 synonym rows, plus additions on every tenth item
    project.lexicon.add_many([(WORDS[n], f"alias of {WORDS[n]}", "same") for n in range(1000)])
    with project.transaction():
        for i in range(N_ITEMS):
            key = rng.sample(WORDS, 8)
            item = project.items.add(NewItem(subject=f"figure {i}", key=[KeyEntry(k) for k in key]))
            if i % 10 == 0:
                project.lexicon.add(key[0], f"local name {i}", item_id=item.id)
            for model in MODELS:
                for condition in CONDITIONS:
                    names = [
                        rng.choice((k, k + "s", f"alias of {k}", rng.choice(WORDS)))
                        for k in key[: rng.randint(3, 8)]
                    ]
                    project.responses.record(
                        NewResponse(
                            item_id=item.id,
                            model=model,
                            condition=condition,
                            request_hash=f"{i}{model}{condition}",
                            status="ok",
                            parse_ok=True,
                            labels=[{"name": n} for n in names],
                        )
                    )
    return project


def timed(fn, repeat: int = 5) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = build(Path(tmp) / "p")
        start = time.perf_counter()
        cells = load_results(project)
        cold = time.perf_counter() - start
        assert len(cells) == N_ITEMS * len(MODELS) * len(CONDITIONS)
        warm, _ = timed(lambda: load_results(project))
        frame, _ = timed(lambda: results_frame(load_results(project)))
        read, responses = timed(lambda: project.responses.latest())
        keys = project.items.keys()
        lexicon = Lexicon.from_rows(project.lexicon.rows())
        pairs = [(r.predicted_names, [k.name for k in keys[r.item_id]]) for r in responses]
        score_names(*pairs[0], lexicon)
        scoring, _ = timed(lambda: [score_names(p, k, lexicon) for p, k in pairs])
        project.close()
    print(f"cells: {len(cells)}")
    print(f"load_results, first call (cold caches): {cold * 1000:7.0f} ms")
    print(f"load_results, next calls (median):      {warm * 1000:7.0f} ms")
    print(f"load_results + results_frame (median):  {frame * 1000:7.0f} ms")
    print(f"bare: store.latest() read (median):     {read * 1000:7.0f} ms")
    print(f"bare: score_names x {len(pairs)} (median):  {scoring * 1000:7.0f} ms")
    print(f"first call minus bare read + score:     {(cold - read - scoring) * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
