"""Build real projects (real SQLite, real assets) full of plausible answers.

Used by the GUI tests and by ``bench/gui.py``: items with drawn figures and
keys from a biology vocabulary, and one stored response per (item, model,
condition) whose names are the key's names with realistic noise — plurals,
synonyms, misspellings, omissions, extra names — and some failed or
unparseable calls, so every colour and filter in the review views has data.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image, ImageDraw

from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.usage import Usage

VOCABULARY = {
    "heart": [
        "left atrium",
        "right atrium",
        "left ventricle",
        "right ventricle",
        "aorta",
        "pulmonary artery",
        "superior vena cava",
        "mitral valve",
        "tricuspid valve",
    ],
    "kidney nephron": [
        "glomerulus",
        "Bowman's capsule",
        "proximal tubule",
        "loop of Henle",
        "distal tubule",
        "collecting duct",
        "afferent arteriole",
    ],
    "animal cell": [
        "nucleus",
        "nucleolus",
        "mitochondrion",
        "ribosome",
        "Golgi apparatus",
        "rough endoplasmic reticulum",
        "lysosome",
        "cell membrane",
    ],
    "flower": ["petal", "sepal", "stamen", "anther", "filament", "stigma", "style", "ovary"],
    "lungs": ["trachea", "bronchus", "bronchiole", "alveolus", "diaphragm", "larynx", "pleura"],
    "eye": ["cornea", "iris", "pupil", "lens", "retina", "optic nerve", "sclera", "choroid"],
}
VARIANTS = {
    "mitral valve": "bicuspid valve",
    "loop of Henle": "Henle's loop",
    "mitochondrion": "mitochondria",
    "alveolus": "alveoli",
    "bronchus": "bronchi",
    "cell membrane": "plasma membrane",
    "Golgi apparatus": "Golgi body",
    "nucleolus": "nucleolous",
}
EXTRAS = ["capillary", "vein", "cytoplasm", "epidermis", "tendon", "cartilage", "myelin sheath"]
#: The stall tests' 10k-answer project (``big_project`` in conftest): 500 items × 5 models × 4.
BIG_MODELS = [f"lab/model-{n}" for n in range(5)]
BIG_ITEMS = 500


def figure_png(subject: str, names: list[str], labelled: bool, seed: int = 0) -> bytes:
    """A small drawn 'figure': a shape with leader lines, with or without the label text.

    ``seed`` shifts the shape so every item's question image is distinct bytes.
    """
    image = Image.new("RGB", (360, 260), "white")
    draw = ImageDraw.Draw(image)
    shift = seed % 40
    draw.ellipse((90 + shift, 50, 250 + shift, 210), outline="black", width=3)
    for n, name in enumerate(names):
        y = 30 + n * 200 // max(1, len(names))
        draw.line((170, 130, 290, y), fill="black", width=1)
        if labelled:
            draw.text((294, y - 6), name, fill="black")
    draw.text((10, 240), subject if labelled else "", fill="black")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def noisy_answer(key: list[str], rng: random.Random, skill: float) -> list[dict[str, str]]:
    """A model's label list for ``key``: drops, variants and extras by ``skill`` in [0, 1]."""
    labels = []
    for name in key:
        if rng.random() > skill:
            continue
        if name in VARIANTS and rng.random() < 0.5:
            name = VARIANTS[name]
        labels.append({"name": name, "location_hint": ""})
    for _ in range(rng.randint(0, 2)):
        labels.append({"name": rng.choice(EXTRAS), "location_hint": ""})
    return labels


def build_project(
    folder: Path,
    *,
    n_items: int,
    models: list[str],
    conditions: tuple[str, ...] = ("blind", "told", "desc", "no-image"),
    seed: int = 7,
    images: bool = True,
) -> Project:
    """Create a project with ``n_items`` items and a response in every cell."""
    rng = random.Random(seed)
    project = Project.create(folder, name="Review fixture")
    subjects = list(VOCABULARY)
    item_ids = []
    for n in range(n_items):
        subject = subjects[n % len(subjects)]
        key = VOCABULARY[subject][: 5 + n % 4]
        item = project.items.add(
            NewItem(
                subject=subject,
                status="ready" if n % 5 else "draft",
                question_png=figure_png(subject, key, labelled=False, seed=n) if images else None,
                answer_png=figure_png(subject, key, labelled=True, seed=n) if images else None,
                key=[KeyEntry(name) for name in key],
                item_id=f"it-{n:04d}",
            )
        )
        item_ids.append((item.id, key))
    with project.transaction():
        for m, model in enumerate(models):
            for condition in conditions:
                skill = 0.35 + 0.6 * (m + 1) / (len(models) + 1)
                skill *= 0.7 if condition == "no-image" else 1.0
                for item_id, key in item_ids:
                    project.responses.record(_response(item_id, model, condition, key, skill, rng))
    return project


def run_again(folder: Path, model: str, condition: str, seed: int, skill: float = 0.8) -> int:
    """A run of ``model`` under ``condition`` ended: a new answer in each of its cells.

    What a curator's run leaves behind: the cells it answered change (new answers,
    new scores), the rest of the project does not. Returns the answers recorded.
    """
    rng = random.Random(seed)
    with Project.open(folder) as project, project.transaction():
        keys = project.items.keys()
        for item_id, entries in keys.items():
            key = [e.name for e in entries]
            project.responses.record(_response(item_id, model, condition, key, skill, rng))
    return len(keys)


def _response(item_id, model, condition, key, skill, rng: random.Random) -> NewResponse:
    roll = rng.random()
    if roll < 0.03:
        return NewResponse(
            item_id,
            model,
            condition,
            f"h-{rng.random()}",
            "api_error",
            error="HTTP 500 from the provider",
        )
    labels = noisy_answer(key, rng, skill)
    raw = (
        '{"diagram_is": "a diagram", "labels": ['
        + ", ".join(f'{{"name": "{label["name"]}"}}' for label in labels)
        + "]}"
    )
    status, parse_ok = ("parse_error", False) if roll < 0.05 else ("ok", True)
    return NewResponse(
        item_id,
        model,
        condition,
        f"h-{rng.random()}",
        status,
        finish_reason="stop",
        raw_text=raw,
        diagram_is="a diagram",
        labels=labels,
        parse_ok=parse_ok,
        usage=Usage(input_tokens=900, output_tokens=120),
        latency_ms=2300.0,
        cost_usd=0.0011,
    )


def answer(item_id: str, model: str, condition: str, names: list[str], **extra) -> NewResponse:
    """A stored ``ok`` answer naming ``names``."""
    labels = [{"name": n, "location_hint": ""} for n in names]
    fields = {
        "status": "ok",
        "raw_text": '{"labels": [...]}',
        "labels": labels,
        "parse_ok": True,
        **extra,
    }
    return NewResponse(item_id, model, condition, f"{item_id}-{model}-{condition}", **fields)


def heart_project(folder) -> Project:
    """Two items, two models, two conditions, with answers whose scores are known.

    Item ``heart``: key mitral valve, aorta, left atrium. Under ``told``, ``m/a``
    says "bicuspid valve" (a synonym the empty lexicon does not know) → F1 2/3;
    under ``no-image`` the models disagree (1.0 vs 0.0). Item ``cell`` has an
    API error and a parse error.
    """
    project = Project.create(folder, name="heart")
    project.items.add(
        NewItem(
            item_id="heart",
            subject="the heart",
            status="ready",
            key=[KeyEntry("mitral valve"), KeyEntry("aorta"), KeyEntry("left atrium")],
        )
    )
    project.items.add(
        NewItem(
            item_id="cell",
            subject="an animal cell",
            status="draft",
            key=[KeyEntry("nucleus"), KeyEntry("ribosome")],
        )
    )
    record = project.responses.record
    record(answer("heart", "m/a", "told", ["bicuspid valve", "aorta", "left atrium"]))
    record(answer("heart", "m/b", "told", ["aorta"]))
    record(answer("heart", "m/a", "no-image", ["aorta", "left atrium", "mitral valve"]))
    record(answer("heart", "m/b", "no-image", []))
    record(answer("cell", "m/a", "told", ["nucleus", "ribosome"]))
    record(NewResponse("cell", "m/b", "told", "x", "api_error", error="HTTP 500", parse_ok=False))
    record(
        NewResponse(
            "cell", "m/a", "no-image", "y", "parse_error", raw_text="not json", parse_ok=False
        )
    )
    return project
