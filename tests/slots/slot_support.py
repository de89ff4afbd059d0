"""Helpers for the slot tests: the sample heart, erased once, copied into fresh projects."""

from __future__ import annotations

from pathlib import Path

from labeler.samples.book import layout
from labeler.store import NewItem, Project

HEART = next(f for f in layout() if f.spec.subject == "human heart")
# Where the heart's labels are printed, read off the figure: Aorta alone at the top, the
# atria side by side, the mitral valve, then the ventricles. This is slot 1…6.
BY_POSITION = [
    "Aorta",
    "Right atrium",
    "Left atrium",
    "Mitral valve",
    "Right ventricle",
    "Left ventricle",
]


def copy_project(folder: Path, erased, copies: int = 1) -> Project:
    item, key, png = erased
    project = Project.create(folder)
    for n in range(copies):
        project.items.add(
            NewItem(
                item_id=f"heart-{n:02d}",
                clip=item.clip,
                dpi=item.dpi,
                subject="human heart",
                question_png=png,
                key=key,
            )
        )
    return project
