"""Seeing slot answers: ``labeler report`` and the export, from a project with real answers.

The project is the sample heart (real erasure) copied, answered by the offline baseline
under the card's four conditions and both slot conditions, plus one stored answer that
places every name right (what a model reading the numbers would say).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

from labeler.export.exporter import export_project
from labeler.export.importer import import_results
from labeler.prompts import ALL_CONDITIONS, CONDITIONS, build_prompt
from labeler.providers.config import baseline_model
from labeler.runs.runner import RunRequest, run
from labeler.slots import slot_order
from labeler.store import NewResponse, Project
from tests.slots.slot_support import BY_POSITION, copy_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def answered(tmp_path_factory, erased):
    folder = tmp_path_factory.mktemp("published") / "p"
    with copy_project(folder, erased, copies=4) as project:
        run(project, RunRequest([baseline_model()], ALL_CONDITIONS))
        order = slot_order(project, "heart-00")
        labels = [
            {"name": n, "location_hint": "", "marker": str(i)} for i, n in enumerate(BY_POSITION, 1)
        ]
        for item_id in ("heart-00", "heart-01"):
            project.responses.record(
                NewResponse(
                    item_id,
                    "reader/model",
                    "slots",
                    f"h-{item_id}",
                    "ok",
                    labels=labels,
                    parse_ok=True,
                    settings={"slot_order": order},
                )
            )
    return folder


def _labeler(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "labeler", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)


def test_report_shows_slot_accuracy_both_conditions_the_gap_and_chance(answered):
    out = _labeler("report", str(answered), "--format", "json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert {m["model"] for m in report["models"]} == {"baseline/subject-prior"}
    reader = report["slots"]["reader/model"]
    assert reader["slots"]["estimate"] == 100.0
    assert reader["f1_minus_slots"]["estimate"] == 0.0
    assert reader["slots-no-image"]["estimate"] is None  # never asked without the image
    baseline = report["slots"]["baseline/subject-prior"]
    assert baseline["chance"]["estimate"] == pytest.approx(100 / 6, abs=0.01)
    lo, hi = baseline["slot_gap"]["lo"], baseline["slot_gap"]["hi"]
    assert lo <= baseline["slot_gap"]["estimate"] <= hi
    text = _labeler("report", str(answered)).stdout
    assert "### Numbered slots (outside the card's four conditions)" in text
    assert "| reader/model | 100.0 [100.0, 100.0] | — |" in text


def test_a_plain_export_is_the_cards_schema_and_include_slots_adds_rows(answered, tmp_path):
    with Project.open(answered) as project:
        plain = export_project(project, tmp_path / "plain")
        slotted = export_project(project, tmp_path / "slots", include_slots=True)
    rows = [json.loads(x) for x in (tmp_path / "plain/results.jsonl").read_text().splitlines()]
    assert {r["condition"] for r in rows} == set(CONDITIONS)
    assert all("slot_accuracy" not in r for r in rows)
    assert "slot" not in (tmp_path / "plain/README.md").read_text()
    extra = [json.loads(x) for x in (tmp_path / "slots/results.jsonl").read_text().splitlines()]
    assert slotted.n_rows == plain.n_rows + 4 * 2 + 2
    by = {(r["item_id"], r["model"], r["condition"]): r for r in extra}
    assert all(r["slot_accuracy"] is None for r in extra if r["condition"] in CONDITIONS)
    reader = [r for r in extra if r["model"] == "reader/model"]
    assert [r["slot_accuracy"] for r in reader] == [1.0, 1.0]
    assert len(by) == len(extra)
    card = (tmp_path / "slots/README.md").read_text()
    assert "    - name: slot_accuracy\n      dtype: float64" in card
    assert "```\n" + build_prompt("slots", "{subject}", ["{slots}"]) + "\n```" in card
    loaded = datasets.load_dataset(str(tmp_path / "slots"), split="train")
    assert loaded.num_rows == len(extra)
    assert str(loaded.features["slot_accuracy"].dtype) == "float64"


def test_an_export_with_slot_rows_reads_back(answered, tmp_path):
    with Project.open(answered) as project:
        report = export_project(project, tmp_path / "slots", include_slots=True)
        imported = import_results(project, tmp_path / "slots" / "results.jsonl")
    # every row passes the reader's checks, and each is the answer the project already has
    assert (imported.imported, imported.unchanged) == (0, report.n_rows)
