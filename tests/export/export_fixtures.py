"""Builders for export tests: a generated PDF source, items, keys, lexicon, responses."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pymupdf

from labeler.store import KeyEntry, NewItem, NewResponse, Project

SOURCE_NAME = "Campbell_Biology_Chapter42.pdf"
SOURCE_TITLE = "Campbell Biology, 11th edition"
PAGE = 137
MODELS = ("openai/gpt-4o", "google/gemini-2.5-flash")


def make_pdf(path: Path, pages: int) -> Path:
    """A real PDF with ``pages`` pages, a labelled figure on page ``PAGE``."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        if n == PAGE:
            page.draw_circle((200, 300), 80)
            page.insert_text((300, 300), "Left atrium", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def answer(project: Project, item_id: str, model: str, condition: str, names, **kw) -> int:
    """Record one response the way a runner would."""
    labels = [{"name": n, "location_hint": "upper left"} for n in names]
    digest = hashlib.sha256(f"{item_id}|{model}|{condition}|{names}".encode()).hexdigest()
    fields = {"status": "ok", "parse_ok": True, "raw_text": str(names)} | kw
    return project.responses.record(
        NewResponse(
            item_id=item_id,
            model=model,
            condition=condition,
            request_hash=digest,
            labels=labels,
            **fields,
        )
    )


def build_project(folder: Path, pdf: Path, draft_id: str | None = None) -> Project:
    """Three exportable items (two ready, one draft) and one excluded, with answers.

    The draft's id is generated unless ``draft_id`` fixes it (for byte-exact comparisons).
    """
    project = Project.create(folder, name="Heart figures", id_prefix="nalanda")
    source = project.sources.add(pdf, kind="pdf", page_count=PAGE + 3, title=SOURCE_TITLE)
    project.lexicon.add_many(
        [
            ("mitral valve", "bicuspid valve", "same"),
            ("mitral valve", "left AV valve", "same"),
            ("nucleus", "nucleolus", "distinct"),
            ("aorta", "aortic trunk", "same"),
        ]
    )
    heart = project.items.add(
        NewItem(
            item_id="campbell-p137-fig42-3",
            source_id=source.id,
            page=PAGE,
            clip=(72.0, 90.5, 410.0, 500.25),
            subject="human heart, frontal section",
            tier="core",
            status="ready",
            key=[
                KeyEntry("Left atrium", bbox=(300, 290, 360, 302), anchor=(210, 300)),
                KeyEntry("Mitral valve"),
                KeyEntry("Aorta"),
                KeyEntry("Right ventricle"),
            ],
        )
    )
    cell = project.items.add(
        NewItem(
            item_id="campbell-p140-fig6-8",
            source_id=source.id,
            page=PAGE + 3,
            clip=(10.0, 10.0, 200.0, 200.0),
            subject="animal cell",
            tier="extended",
            pattern="C",
            status="ready",
            key=[KeyEntry("Nucleus", marker="A"), KeyEntry("Mitochondrion", marker="B")],
        )
    )
    project.lexicon.add("mitochondrion", "powerhouse", "same", item_id=cell.id)
    draft = project.items.add(
        NewItem(
            item_id=draft_id,
            source_id=source.id,
            page=PAGE,
            subject="lung alveoli",
            status="draft",
            key=[KeyEntry("Alveolus"), KeyEntry("Bronchiole")],
        )
    )
    excluded = project.items.add(
        NewItem(
            item_id=None if draft_id is None else f"{draft_id}-excluded",
            source_id=source.id,
            page=PAGE,
            subject="excluded figure",
            status="excluded",
            key=[KeyEntry("Secret part")],
        )
    )
    for model in MODELS:
        answer(project, heart.id, model, "blind", ["left atrium", "valve"])
        answer(project, heart.id, model, "told", ["Left atria", "bicuspid valve", "aorta"])
        answer(project, heart.id, model, "desc", ["left atrium", "aortic trunk"])
        answer(project, cell.id, model, "told", ["nucleolus", "mitochondria"])
        answer(project, cell.id, model, "no-image", ["nucleus", "powerhouse"])
        answer(project, draft.id, model, "told", ["alveoli"])
        answer(project, excluded.id, model, "told", ["Secret part"])
    # a re-sent cell: the latest answer wins
    answer(project, heart.id, MODELS[0], "no-image", ["aorta"])
    answer(
        project,
        heart.id,
        MODELS[0],
        "no-image",
        ["Left atrium", "mitral valve", "aorta", "right ventricle"],
    )
    answer(project, heart.id, MODELS[1], "no-image", [], status="parse_error", parse_ok=False)
    # a transport failure is not an answer and is not exported
    answer(project, draft.id, MODELS[1], "no-image", [], status="api_error", error="HTTP 503")
    return project
