"""Parse time of 1 MB hostile answers, as a ratio to ``json.loads`` of a valid 1 MB answer.

A model stuck in a loop, or a hostile server, can send megabytes of brackets, quotes or list
lines. Parsing must stay linear and bounded (issue 9: 16 KB of ``{`` used to take 35 s and
stall the run). Each shape below is 1 MB; the figure is the best of ``--repeat`` runs.
Goal: every shape <= 0.5 s.

    python bench/parse.py [--size 1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.runs.parse import parse_answer

GOAL_S = 0.5

SHAPES: dict[str, Callable[[int], str]] = {
    "open braces": lambda n: "{" * n,
    "open brackets": lambda n: "[" * n,
    "deep nesting": lambda n: "[" * (n // 2) + "]" * (n // 2),
    "empty objects": lambda n: "{}" * (n // 2),
    "reversed brackets": lambda n: "][" * (n // 2),
    "nested keys": lambda n: '{"a":' * (n // 5),
    "double quotes": lambda n: '"' * n,
    "backslashes in a string": lambda n: '["' + "\\" * n,
    "string list, unclosed": lambda n: "[" + '"a",' * (n // 4),
    "bare words": lambda n: "[" + "a " * (n // 2),
    "python literals": lambda n: "[" + "{'name': 'x', 'hint': None}, " * (n // 30),
    "comments": lambda n: "[" + "//\n" * (n // 3),
    "block comment, unclosed": lambda n: "[/*" + "* " * (n // 2),
    "escaped quotes": lambda n: '["' + '\\"' * (n // 2),
    "markdown list": lambda n: "- aorta\n" * (n // 8),
    "numbered list": lambda n: "1. x\n" * (n // 5),
    "table rows": lambda n: "| A | Aorta | top |\n" * (n // 19),
    "think tags": lambda n: "<think>" * (n // 7),
    "lone surrogates": lambda n: "\ud800" * n,
    "refusal words": lambda n: "sorry " * (n // 6),
}


def valid_answer(size: int) -> str:
    """A well-formed answer of about ``size`` characters."""
    label = {"name": "left ventricle", "location_hint": "lower right, thick wall"}
    count = size // len(json.dumps(label))
    return json.dumps({"diagram_is": "human heart", "labels": [label] * count})


def best(fn: Callable[[str], object], text: str, repeat: int) -> float:
    """The fastest of ``repeat`` calls of ``fn(text)``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    valid = valid_answer(args.size)
    baseline = best(json.loads, valid, args.repeat)
    print(f"json.loads of a valid {len(valid):,}-char answer: {baseline * 1000:.1f} ms")
    own = best(parse_answer, valid, args.repeat)
    print(f"parse_answer of the same valid answer: {own * 1000:.1f} ms")
    worst = 0.0
    for name, make in SHAPES.items():
        text = make(args.size)
        seconds = best(parse_answer, text, args.repeat)
        worst = max(worst, seconds)
        status = parse_answer(text).status
        print(
            f"{name:26} {len(text):>9,} chars {seconds * 1000:8.1f} ms "
            f"{seconds / baseline:7.1f}x  {status}"
        )
    verdict = "ok" if worst <= GOAL_S else "OVER GOAL"
    print(
        f"worst hostile shape: {worst:.3f} s ({worst / baseline:.0f}x json.loads); "
        f"goal <= {GOAL_S} s: {verdict}"
    )
    return 0 if worst <= GOAL_S else 1


if __name__ == "__main__":
    sys.exit(main())
