"""Bench: ``labeler score`` and ``labeler report`` at 10k and 100k answers; the scorer itself.

``python bench/score.py`` (or ``python bench/score.py 10000``) builds the 10k and 100k
projects (``bench/build_project.py``) and measures, each in a fresh process (CPU seconds
and peak RSS, ``bench/measure.py``): ``labeler report PROJECT`` with nothing cached and
again with the scores cached, against the floor of reading the rows it reports (the latest
answers' names from the store, one JSON parse each); and ``labeler score results.jsonl``
(the project's export) against reading and writing those rows with ``json``. Goal (issue
#17): ≤ 5x reading the rows.

Measured 2026-12-01 on the shared 2-core machine (load average 9–10: CPU seconds inflated by
contention), copies of ``/tmp/scale``, CPU s (× floor), peak RSS:

=======================  ==========================  ==========================
                         before (main feda396)       after (export17)
=======================  ==========================  ==========================
10k report, no cache     2.47 s (39×), 210 MiB       2.27 s (36×), 200 MiB
10k report, cached       1.86 s (30×), 198 MiB       1.63 s (26×), 188 MiB
10k score                1.12 s (7.7×), 166 MiB      1.09 s (7.2×), 166 MiB
100k report, no cache    16.7 s (24×), 544 MiB       14.8 s (20×), 481 MiB
100k report, cached      10.9 s (15.8×), 464 MiB     7.83 s (10.8×), 412 MiB
100k score               4.86 s (2.3×), 561 MiB      4.72 s (2.3×), 561 MiB
=======================  ==========================  ==========================

Floors: reading the rows 0.06 s (10k) / 0.69–0.72 s (100k); read + write results.jsonl
0.15 s / 2.06–2.13 s. A second run of the final code (load 7–9): 100k report cached 8.25 s
(11.3×, wall 21 s), no cache 13.7 s (18.7×, wall 34 s), score 5.09 s (2.1×, wall 10 s).
``labeler score`` is within the goal at 100k (its per-row flag lookup
was fixed before this round); at 10k interpreter start and the pandas import are the ratio.
``labeler report`` now reads the project's cells once (the slot answers are scored from the
same cells instead of a second ``load_results``), takes the review line from the same open
project and builds a frame of only the columns the audits read. What is left at 100k cached:
``load_results`` ≈2.7 s (alone ≈3.8× the floor), the shuffled-key and consensus audits
≈2 s (a second scoring pass of every answer against another item's key, and the scorer's
equivalence classes per item), interpreter start and imports ≈0.8 s.

export17b (2026-12-01, load average 4–7): ``labeler report PROJECT`` reads
``labeler.results.cell_columns`` once (the slot answers from its memo) and builds its frame
from columns, no ``ScoredCell``s; output identical (markdown, json, csv). 100k cached, the same
copy of ``/tmp/scale/scale-100000`` measured in turn, CPU s (× floor 0.64 s): before (integ
20efb22) 6.50 / 6.70 s (10.2× / 10.5×), 405 MiB; after 5.43 / 5.71 s (8.5× / 8.9×), 380 MiB.
This bench at 100k after: report nothing cached 12.3 s (18.9×), cached 5.85 s (9.0×, wall
24 s), 378 MiB; score 5.23 s (2.4×). What is left: the shuffled-key and consensus audits
(≈2 s: a second scoring pass against another item's key, equivalence classes per item),
the cells' read (≈1.3 s), interpreter start and imports (≈0.8 s).

report17c (2026-12-01, load average 9–12 throughout: every number inflated by contention,
compare columns, not rounds). The audits score in one batch
(``labeler.scoring.match.score_counts_many``: each distinct answer read and merged into
classes once, each distinct (names, other key) pair scored once, pairs hashed as numbers);
consensus counts a name's models over per-model name sets; the slot answers use the report's
own cell read; the review line reads the latest answer ids only when an override exists; the
report path no longer imports pymupdf. Output byte-identical (markdown, json; project and
results.jsonl; ``labeler score`` output too). Copies of ``/tmp/scale``, scores cached, two
alternating before (main 6efadfe) / after runs per round, CPU s (wall s):

======================  ===========================  ===========================
                        before                       after
======================  ===========================  ===========================
100k report, round 1    5.78 (17.7), 6.93 (20.5)     4.10 (12.6), 5.31 (14.9)
100k report, round 2    8.58 (40.6), 7.34 (18.6)     6.09 (17.4), 5.25 (13.2)
100k score, round 1     5.19 (15.5), 6.18 (18.7)     6.25 (16.6), 5.42 (15.1)
100k score, round 2     5.27 (13.6), 5.62 (15.0)     6.25 (17.1), 5.39 (16.0)
10k report, round 1     1.69 (5.5), 1.56 (3.9)       1.57 (4.9), 1.14 (3.5)
10k report, round 2     1.88 (11.7), 1.62 (9.3)      1.44 (8.4), 1.51 (8.4)
10k score, round 1      1.17 (4.2), 1.53 (4.6)       1.27 (4.0), 1.44 (4.7)
10k score, round 2      1.56 (8.9), 1.27 (7.7)       1.44 (8.7), 1.13 (6.7)
======================  ===========================  ===========================

Floors (same rounds): read the rows 0.84–1.00 / 0.70–0.87 s (100k), 0.066–0.099 s (10k);
read + write results.jsonl 3.08–3.10 / 2.57–2.86 s (100k), 0.17–0.27 s (10k). 100k report:
mean 7.16 → 5.19 s CPU (−28%), 4.9–8.7× the round's floor after (6.9–12.3× before); at the
load of export17b's measurement (4–7) that is ≈ 6.1–6.4×, not yet ≤ 5×. ``labeler score``
unchanged (1.8–2.4×, noise). The audits alone, in one process on one frame (min of 3): 2.05 →
1.20 s at 100k, 0.22 → 0.17 s at 10k. What is left at 100k: the cells' read
(``cell_columns`` ≈ 1.2 s, results17's), pandas and interpreter start ≈ 0.6 s, the audits
≈ 1 s (≈ 67k distinct answer × other-key pairs and 34k consensus names, each a real scorer
call), the frame ≈ 0.3 s.

``python bench/score.py rows [card|expert]`` is the scorer bench below.

The scorer bench: rescore the card's 6,335 rows with a 2,000-term lexicon.

Rows are generated (181 items × 9 models × 4 conditions, trimmed to 6,335):
~10 key names per item and ~10 predictions per answer, mixing exact names,
case/article variants, plurals, lexicon synonyms, one-letter typos (fuzzy) and
misses. The baseline is the bare cost of the same work done naively: exact-set
F1 (``len(set(pred) & set(key))``) on the same rows. Goal: ≤ 0.5 s, ≤ 5×.

Run: ``python bench/score.py rows`` (both rule sets, each in a fresh process) or
``python bench/score.py rows expert``. Reports a cold pass (empty caches, what a
fresh ``labeler score`` pays) and a warm pass (what the GUI pays on live
rescoring once answers' scores are memoised on their prepared key). It also
reports a floor no Python scorer can beat: merely building the same NameScore
results (lists of Match tuples, unmatched and missed names) from finished
parts, with no matching at all — which alone costs about 4x the baseline.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.lexicon import Lexicon
from labeler.scoring import RULES, Match, NameScore, score_names
from labeler.scoring.rescore import rescore_rows

N_ROWS = 6335
SYLLABLES = (
    "ab",
    "cor",
    "den",
    "fol",
    "gan",
    "hep",
    "il",
    "lum",
    "mel",
    "ner",
    "os",
    "pul",
    "ren",
    "sep",
    "tib",
    "ur",
    "vas",
    "zyg",
    "ex",
    "on",
)
ENDINGS = ("us", "um", "a", "on", "is", "ex", "en", "al", "ic", "ar")
QUALIFIERS = ("", "", "left ", "right ", "upper ", "lower ", "inner ", "outer ")


def word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) + rng.choice(ENDINGS)


def plural(name: str) -> str:
    for singular, many in (
        ("us", "i"),
        ("um", "a"),
        ("on", "a"),
        ("a", "ae"),
        ("is", "es"),
        ("ex", "ices"),
        ("en", "ina"),
    ):
        if name.endswith(singular):
            return name[: -len(singular)] + many
    return name + "s"


def build(seed: int = 7) -> tuple[list[tuple[list[str], list[str]]], Lexicon]:
    rng = random.Random(seed)
    vocabulary = sorted({rng.choice(QUALIFIERS) + word(rng) for _ in range(3000)})
    lexicon_rows, synonyms = [], {}
    for canonical in rng.sample(vocabulary, 1000):  # 1,000 rows, 2,000 terms
        synonym = word(rng) + " " + word(rng)
        lexicon_rows.append((canonical, synonym, "same"))
        synonyms[canonical] = synonym
    lexicon = Lexicon.from_rows(lexicon_rows)

    def variant(name: str) -> str:
        roll = rng.random()
        if roll < 0.35:
            return name
        if roll < 0.45:
            return "The " + name.title()
        if roll < 0.60:
            return plural(name)
        if roll < 0.70 and name in synonyms:
            return synonyms[name]
        if roll < 0.78 and len(name) >= 8:
            i = rng.randrange(4, len(name))
            return name[:i] + rng.choice("aeiou") + name[i:]
        return rng.choice(vocabulary)

    rows = []
    keys = [rng.sample(vocabulary, rng.randint(7, 13)) for _ in range(181)]
    while len(rows) < N_ROWS:
        for key in keys:
            predicted = [variant(name) for name in key if rng.random() < 0.85]
            predicted += [rng.choice(vocabulary) for _ in range(rng.randint(0, 3))]
            rows.append((predicted, key))
    return rows[:N_ROWS], lexicon


def exact_set_f1(predicted: list[str], key: list[str]) -> float:
    p, k = set(predicted), set(key)
    tp = len(p & k)
    return 2 * tp / (len(p) + len(k)) if tp else 0.0


def timed(fn, rows) -> float:
    """CPU seconds of this process (robust to other jobs sharing the 2 cores)."""
    start = time.process_time()
    for predicted, key in rows:
        fn(predicted, key)
    return time.process_time() - start


def rescore_timed(records: list[dict], lexicon: Lexicon, rules: str) -> float:
    """CPU seconds of ``rescore_rows``: what ``labeler score`` runs over a results file."""
    start = time.process_time()
    rescore_rows(records, lexicon, rules=rules)
    return time.process_time() - start


def rebuild(score: NameScore) -> NameScore:
    """The same result built again from its parts: the floor of returning the evidence."""
    return NameScore(
        score.f1,
        score.precision,
        score.recall,
        score.n_pred,
        score.n_key,
        [Match(m.pred, m.key, m.how) for m in score.matches],
        list(score.unmatched_pred),
        list(score.missed_key),
    )


def main(rules: str) -> None:
    rows, lexicon = build()
    baseline = min(timed(exact_set_f1, rows) for _ in range(5))
    records = [{"predicted_names": p, "key_names": k} for p, k in rows]
    cold = rescore_timed(records, lexicon, rules)
    warm = min(rescore_timed(records, lexicon, rules) for _ in range(3))
    hows: dict[str, int] = {}
    results = [score_names(predicted, key, lexicon, rules=rules) for predicted, key in rows]
    for result in results:
        for match in result.matches:
            hows[match.how] = hows.get(match.how, 0) + 1
    finished = [(result, None) for result in results]
    floor = min(timed(lambda result, _: rebuild(result), finished) for _ in range(5))
    print(f"== rules={rules}: rows {len(rows)}, lexicon rows {len(lexicon)}, matches {hows}")
    print(f"exact-set F1 baseline: {baseline:.3f} s")
    print(f"rescore_rows cold:     {cold:.3f} s  ({cold / baseline:.1f}x baseline)")
    print(f"rescore_rows warm:     {warm:.3f} s  ({warm / baseline:.1f}x baseline)")
    print(f"floor, NameScore build: {floor:.3f} s  ({floor / baseline:.1f}x baseline)")


READ_ROWS = """
import json, sys, time
from labeler.store import Project
start = time.process_time()
with Project.open(sys.argv[1]) as p:
    rows = p.db.execute(
        "SELECT r.id, r.item_id, r.model, r.condition, r.status, r.labels_json FROM responses r"
        " JOIN (SELECT MAX(id) AS id FROM responses GROUP BY item_id, model, condition) last"
        " ON r.id = last.id ORDER BY r.id"
    )
    names = [[l.get("name") for l in json.loads(r[5])] for r in rows]
print(time.process_time() - start)
"""

READ_WRITE_JSONL = """
import json, sys, time
start = time.process_time()
with open(sys.argv[1], encoding="utf-8") as f:
    rows = [json.loads(line) for line in f]
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write("".join(json.dumps(r, ensure_ascii=False) + "\\n" for r in rows))
print(time.process_time() - start)
"""


def floor_of(code: str, *args: str) -> float:
    """CPU seconds a floor script reports for its own work (interpreter start excluded)."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True
    )
    return float(done.stdout.strip())


def projects(sizes: tuple[int, ...]) -> None:
    import tempfile

    from bench.measure import fresh_project, labeler, run

    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            project = str(fresh_project(n, Path(tmp)))
            read = min(floor_of(READ_ROWS, project) for _ in range(3))
            cold = run(labeler("report", project))
            warm = run(labeler("report", project))
            run(labeler("export", project, "--out", f"{tmp}/out"))
            results = f"{tmp}/out/results.jsonl"
            jsonl = min(floor_of(READ_WRITE_JSONL, results, f"{tmp}/floor.jsonl") for _ in range(3))
            score = run(labeler("score", results, "--out", f"{tmp}/rescored.jsonl"))
        print(f"== {n:,} answers")
        print(f"  floor: read the rows from the store  {read:6.2f} s CPU")
        for label, usage in (("report, nothing cached", cold), ("report, scores cached", warm)):
            print(
                f"  {label:<28} {usage.cpu:6.2f} s CPU ({usage.cpu / read:5.1f}x)"
                f"  wall {usage.wall:6.2f} s  peak RSS {usage.peak_mib:5.0f} MiB"
            )
        print(f"  floor: read + write results.jsonl    {jsonl:6.2f} s CPU")
        print(
            f"  {'score results.jsonl':<28} {score.cpu:6.2f} s CPU ({score.cpu / jsonl:5.1f}x)"
            f"  wall {score.wall:6.2f} s  peak RSS {score.peak_mib:5.0f} MiB"
        )
    print("goal: <= 5x reading the rows (CPU seconds; the commands include interpreter start)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["rows"] and len(sys.argv) > 2:
        main(sys.argv[2])
    elif sys.argv[1:2] == ["rows"]:  # each rule set in a fresh process: no shared warm caches
        for name in RULES:
            subprocess.run([sys.executable, __file__, "rows", name], check=True)
        print("goal: <= 0.5 s and <= 5x (CPU seconds, time.process_time)")
    else:
        from bench.measure import SIZES

        projects(tuple(int(a) for a in sys.argv[1:]) or SIZES)
