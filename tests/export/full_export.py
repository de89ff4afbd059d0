"""A project that exercises every part of an export, and its files made comparable.

The fixture project (``export_fixtures.build_project``) with a reviewer's override, a
comment, a second curator's key and answers under the slot conditions, with its ID salt
and citation year fixed so its public numbers and card do not depend on the day or the
random salt. :func:`comparable` reads an export folder with the machine's folder, the
audit trail's clock readings and the source PDF's digest replaced, so two exports of it
can be compared byte for byte.
"""

from __future__ import annotations

import re
from pathlib import Path

from labeler import review
from labeler.agreement import add_curator_key
from labeler.slots import slot_order
from labeler.store import NewResponse, Project
from tests.export.export_fixtures import MODELS, build_project

HEART = "campbell-p137-fig42-3"
CELL = "campbell-p140-fig6-8"
GOLDEN = Path(__file__).with_name("golden_full")
_TIMES = re.compile(rb'"created_at": "[^"]*"')
_DIGESTS = re.compile(rb'"sha256": "[0-9a-f]{64}"')  # pymupdf stamps each PDF it saves


def build_full(folder: Path, pdf: Path) -> Project:
    """The fixture project plus review, agreement and slot answers (fixed salt and year)."""
    project = build_project(folder, pdf, draft_id="campbell-p137-alveoli")
    project.set_meta("id_salt", "fixed-salt-for-byte-comparison")
    project.set_meta("cite_year", "2026")
    review.override(project, HEART, MODELS[0], "told", "correct", "the valve is cut off", "Ada")
    review.approve(project, HEART, "Ada")
    review.comment(project, CELL, "Check the nucleus arrow", "Grace")
    add_curator_key(project, HEART, "Linus", ["left atrium", "bicuspid valve", "aorta"])
    names = [e.name for e in project.items.key(HEART)]
    order = slot_order(project, HEART)
    for model, condition, shift in ((MODELS[0], "slots", 0), (MODELS[1], "slots-no-image", 1)):
        labels = [
            {"name": names[(i + shift) % len(names)], "location_hint": "", "marker": str(n)}
            for n, i in enumerate(order, start=1)
        ]
        project.responses.record(
            NewResponse(
                HEART,
                model,
                condition,
                f"slot-{model}-{condition}",
                "ok",
                labels=labels,
                parse_ok=True,
                settings={"slot_order": order, "temperature": 0},
            )
        )
    return project


def comparable(folder: Path, tmp: Path) -> dict[str, bytes]:
    """Every file of an export folder by relative path, machine-independent."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes().replace(str(tmp).encode(), b"<tmp>")
        data = _TIMES.sub(b'"created_at": "<time>"', data)
        out[path.relative_to(folder).as_posix()] = _DIGESTS.sub(b'"sha256": "<digest>"', data)
    return out
