"""Slot conditions run end to end: real erasure, the official SDKs against a loopback server,
the offline baseline, the CLI; answers stored with their prompt hash and scored by slot.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from labeler.errors import LabelerError
from labeler.prompts import build_prompt, prompt_sha256
from labeler.providers.config import baseline_model, load_models
from labeler.runs.runner import RunRequest, plan_run, run
from labeler.slot_results import slot_frame, slot_results, slot_table
from labeler.slots import set_slot_order, slot_order, slot_question
from labeler.store import NewItem, NewResponse, Project
from tests.runs.runs_loopback import API_KEY, LoopbackServer, ok
from tests.runs.runs_support import KEY_ENV, models_toml
from tests.slots.slot_support import BY_POSITION, copy_project

ROOT = Path(__file__).resolve().parents[2]


def _by_position_answer() -> str:
    labels = [{"number": n, "name": name} for n, name in enumerate(BY_POSITION, 1)]
    return json.dumps({"diagram_is": "heart", "labels": labels})


def test_a_provider_that_answers_by_position_scores_one(tmp_path, erased, monkeypatch):
    monkeypatch.setenv(KEY_ENV, API_KEY)
    with LoopbackServer() as server, copy_project(tmp_path / "p", erased) as project:
        marks = ", ".join(str(n) for n in range(1, 7))
        # both slot prompts are the same text: the server answers both by position
        server.script(f"a mark remains: {marks})", *[ok(_by_position_answer())] * 6)
        models = load_models(models_toml(tmp_path / "models.toml", server.url))
        summary = run(project, RunRequest(models, ["slots", "slots-no-image"]))
        assert summary.counts["ok"] == 6 and server.violations == []
        expected = build_prompt("slots", "human heart", [str(n) for n in range(1, 7)])
        assert {s.prompt for s in server.seen} == {expected}  # verbatim, both conditions
        with_image = [s for s in server.seen if s.image is not None]
        assert len(with_image) == 3  # slots sends the slot image, slots-no-image none
        sent = Image.open(io.BytesIO(with_image[0].image))
        question = slot_question(project, "heart-00")
        assert question is not None
        assert sent.size == Image.open(io.BytesIO(question.png)).size
        for response in project.responses.latest():
            assert response.prompt_sha256 == prompt_sha256(expected)
        cells = slot_results(project)
        by = {(c.model, c.condition): c for c in cells}
        for model in models:
            assert by[model.name, "slots"].accuracy == 1.0
            assert by[model.name, "slots"].f1 == 1.0
            assert all(v.correct for v in by[model.name, "slots"].slots.verdicts)


def test_the_offline_baseline_answers_slots_no_image_at_chance(tmp_path, erased):
    # 30 copies of the heart: the baseline (leave-one-out) knows exactly its six names,
    # but never sees where they are; so its slot accuracy is chance (1/6), its F1 is 1.
    with copy_project(tmp_path / "p", erased, copies=30) as project:
        run(project, RunRequest([baseline_model()], ["slots", "slots-no-image"]))
        cells = [c for c in slot_results(project) if c.condition == "slots-no-image"]
        assert len(cells) == 30
        assert all(c.f1 == 1.0 and c.chance == pytest.approx(1 / 6) for c in cells)
        mean = sum(c.accuracy for c in cells) / len(cells)
        # a random placement gets 1 of 6 right on average (sd 1/6 per item, /√30 over items)
        assert abs(mean - 1 / 6) < 3 * (1 / 6) / 30**0.5
        table = slot_table(slot_frame(slot_results(project))).set_index("metric")
        assert table.loc["chance", "estimate"] == pytest.approx(100 / 6)
        assert table.loc["f1_minus_slots", "estimate"] > 50  # knows the names, not the places


def test_a_new_slot_order_is_a_new_question_and_old_answers_keep_their_numbers(tmp_path, erased):
    with copy_project(tmp_path / "p", erased, copies=3) as project:
        request = RunRequest([baseline_model()], ["slots"])
        run(project, request)
        assert plan_run(project, request).calls == []  # resumed: nothing to ask again
        before = {c.item_id: c.slots for c in slot_results(project)}
        order = slot_order(project, "heart-00")
        set_slot_order(project, "heart-00", list(reversed(order)))
        assert [c.item_id for c in plan_run(project, request).calls] == ["heart-00"]
        # the stored answer is still scored against the slots it was asked about
        assert {c.item_id: c.slots for c in slot_results(project)} == before


def test_the_store_refuses_an_unknown_condition(tmp_path):
    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="x", subject="s"))
        with pytest.raises(LabelerError, match="unknown condition 'slot'"):
            project.responses.record(NewResponse("x", "m", "slot", "h", "ok"))
        project.responses.record(NewResponse("x", "m", "slots-no-image", "h", "ok"))


SLOT_ARGS = ("--conditions", "slots,slots-no-image")


def test_labeler_run_conditions_slots_from_the_command_line(tmp_path, erased):
    copy_project(tmp_path / "p", erased, copies=2).close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "labeler", "run", str(tmp_path / "p"), *SLOT_ARGS],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    with Project.open(tmp_path / "p") as project:
        conditions = sorted(r.condition for r in project.responses.latest())
        assert conditions == ["slots", "slots", "slots-no-image", "slots-no-image"]


def test_an_item_without_slots_is_reported_unrunnable(tmp_path, erased):
    with copy_project(tmp_path / "p", erased) as project:
        key = project.items.key("heart-00")
        project.items.set_key("heart-00", [dataclasses.replace(e, bbox=None) for e in key])
        plan = plan_run(project, RunRequest([baseline_model()], ["slots", "told"]))
        assert [c.condition for c in plan.calls] == ["told"]
        assert plan.unrunnable == [
            "heart-00 baseline/subject-prior slots: no slot question"
            " (no question image, or no named boxed label)"
        ]
