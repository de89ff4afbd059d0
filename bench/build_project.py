"""A realistic large project for the scale benches, built through the store's own code.

``build(folder, n_items, n_models, conditions)`` creates a project with ``n_items`` items
(10 key names each, every fifth with printed markers, every seventh with a key
alternative), one private source document, the shipped starter lexicon as the global
lexicon plus per-item additions on every tenth item, and one stored answer per
(item, model, condition) cell — ``n_items × n_models × len(conditions)`` answers — with
raw answer text of a realistic size and a mix of exact, synonym, plural, wrong and
missing names. Statuses mix in truncated, refused and api_error answers.

It is the one builder for ``bench/score.py``, ``bench/export.py`` and ``bench/scale.py``
(the GUI bench imports it), so every bench measures the same project. Everything is
seeded: the same arguments give the same project.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.data import STARTER_LEXICON, data_file
from labeler.prompts import CONDITIONS
from labeler.status import ResponseStatus
from labeler.store import KeyEntry, NewItem, NewResponse, Project

NAMES_PER_KEY = 10
#: 1×1 PNG: the items' question image (content-addressed, so stored once).
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082"
)


def model_names(n_models: int) -> list[str]:
    """``lab/model-0`` … : the benches' model ids."""
    return [f"lab/model-{n}" for n in range(n_models)]


def build(
    folder: Path,
    n_items: int,
    n_models: int,
    conditions: Sequence[str] = CONDITIONS,
    seed: int = 17,
) -> Path:
    """Create the project in ``folder`` (must not be a project yet) and return ``folder``."""
    rng = random.Random(seed)
    folder = Path(folder)
    rows = _starter_rows()
    synonyms, vocabulary = _names(rows)
    project = Project.create(folder, id_prefix="BENCH")
    try:
        source_file = folder.parent / f"{folder.name}-Hidden-Atlas-2024.pdf"
        _blank_pdf(source_file, pages=400)  # a real PDF: Curate opens it
        with project.transaction():
            project.lexicon.add_many(rows)
            source = project.sources.add(
                source_file, kind="pdf", page_count=400, title="Hidden Publisher Atlas 2024"
            )
            models = model_names(n_models)
            for i in range(n_items):
                key = _key(rng, vocabulary, i)
                item = project.items.add(
                    NewItem(
                        source_id=source.id,
                        page=1 + i % 400,
                        subject=f"figure {i} of the {rng.choice(vocabulary)}",
                        tier="core" if i % 3 == 0 else "extended",
                        status="ready",
                        question_png=PNG,
                        answer_png=PNG,
                        key=key,
                    )
                )
                if i % 10 == 0:
                    project.lexicon.add(key[0].name, f"local name {i}", item_id=item.id)
                for model in models:
                    for condition in conditions:
                        project.responses.record(
                            _answer(rng, item.id, model, condition, key, synonyms, vocabulary)
                        )
    finally:
        project.close()
    return folder


def answer_again(project: Project, n_items: int, seed: int = 18) -> int:
    """What a run over the project's first ``n_items`` items leaves: every model and
    condition they were asked under answered anew (answers drawn as :func:`build`'s);
    returns how many answers were stored."""
    rng = random.Random(seed)
    synonyms, vocabulary = _names(_starter_rows())
    cells = project.db.execute("SELECT DISTINCT model, condition FROM latest_answers").fetchall()
    stored = 0
    with project.transaction():
        for item in project.items.list()[:n_items]:
            key = project.items.key(item.id)
            for model, condition in cells:
                answer = _answer(rng, item.id, model, condition, key, synonyms, vocabulary)
                again = dataclasses.replace(answer, request_hash=f"{answer.request_hash}+{seed}")
                project.responses.record(again)
                stored += 1
    return stored


def _names(rows: list[tuple[str, str, str]]) -> tuple[dict[str, list[str]], list[str]]:
    """The starter lexicon's synonyms by canonical name, and the vocabulary keys draw from."""
    synonyms: dict[str, list[str]] = {}
    for canonical, synonym, relation in rows:
        if relation == "same":
            synonyms.setdefault(canonical, []).append(synonym)
    vocabulary = sorted({c for c, _, _ in rows} | {f"structure {n:04d}" for n in range(3000)})
    return synonyms, vocabulary


def _blank_pdf(path: Path, pages: int) -> None:
    import pymupdf

    with pymupdf.open() as doc:
        for _ in range(pages):
            doc.new_page()
        doc.save(path)


def _starter_rows() -> list[tuple[str, str, str]]:
    with data_file(STARTER_LEXICON).open(encoding="utf-8", newline="") as f:
        return [(r["canonical"], r["synonym"], r["relation"]) for r in csv.DictReader(f)]


def _key(rng: random.Random, vocabulary: list[str], i: int) -> list[KeyEntry]:
    names = rng.sample(vocabulary, NAMES_PER_KEY)
    return [
        KeyEntry(
            name,
            bbox=(10.0 * n, 10.0, 10.0 * n + 40, 20.0),
            marker=chr(ord("A") + n) if i % 5 == 0 else None,
            alternatives=(f"alt {name}",) if i % 7 == 0 and n == 0 else (),
        )
        for n, name in enumerate(names)
    ]


def _answer(
    rng: random.Random,
    item_id: str,
    model: str,
    condition: str,
    key: list[KeyEntry],
    synonyms: dict[str, list[str]],
    vocabulary: list[str],
) -> NewResponse:
    roll = rng.random()
    if roll < 0.02:
        return NewResponse(
            item_id, model, condition, f"{item_id}{model}{condition}", ResponseStatus.API_ERROR,
            error="HTTP 503 from the provider",
        )  # fmt: skip
    labels = []
    for entry in key:
        pick = rng.random()
        if pick < 0.15:
            continue  # missed
        if pick < 0.55:
            name = entry.name
        elif pick < 0.70 and entry.name in synonyms:
            name = rng.choice(synonyms[entry.name])
        elif pick < 0.80:
            name = entry.name.title() + "s"
        else:
            name = rng.choice(vocabulary)
        label = {"name": name, "location_hint": f"near the {rng.choice(('top', 'left', 'base'))}"}
        if entry.marker:
            label["marker"] = entry.marker if rng.random() < 0.8 else "Z"
        labels.append(label)
    labels += [{"name": rng.choice(vocabulary)} for _ in range(rng.randint(0, 2))]
    status = ResponseStatus.TRUNCATED if roll < 0.05 else ResponseStatus.OK
    raw = json.dumps({"diagram_is": "a labelled figure", "labels": labels}, indent=2)
    return NewResponse(
        item_id=item_id,
        model=model,
        condition=condition,
        request_hash=f"{item_id}{model}{condition}",
        status=status,
        finish_reason="length" if status == ResponseStatus.TRUNCATED else "stop",
        raw_text=raw + "\n" + "Reasoning about the figure. " * rng.randint(5, 40),
        diagram_is="a labelled figure",
        labels=labels,
        parse_ok=True,
        latency_ms=rng.uniform(500, 9000),
        settings={"temperature": 0.0, "max_tokens": 4096},
    )


if __name__ == "__main__":
    import tempfile
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 250
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        path = build(Path(tmp) / "p", n, 10)
        print(f"built {n} items × 10 models × 4 conditions in {time.perf_counter() - start:.1f} s")
