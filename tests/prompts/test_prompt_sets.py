"""Prompt sets: the card's by default, another domain's from a validated TOML file, the
slot prompts derived from ``told``, and the hash of the text sent stored with every answer."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.prompts import (
    ALL_CONDITIONS,
    CARD_PROMPTS,
    CONDITIONS,
    PromptSet,
    PromptSetError,
    build_prompt,
    needs_image,
    project_prompts,
    prompt_sha256,
    prompts_used,
    use_prompt_set,
)
from labeler.providers.config import baseline_model
from labeler.runs.runner import RunRequest, run
from labeler.store import KeyEntry, NewItem, Project

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = """{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"name": "<term>", "location_hint": "<where in image>"} ]
}"""
PHYSICS = f'''
name = "physics apparatus"

[prompts]
blind = """
You are an experienced physics teacher labeling an apparatus diagram.
Its parts are indicated by leader lines (the printed labels have been erased). Name EVERY
part that a leader line points to. Output ONLY valid JSON in exactly this shape:
{SCHEMA}
"""
told = """
You are an experienced physics teacher labeling a diagram of: {{subject}}.
Its parts are indicated by leader lines (the printed labels have been erased). Name EVERY
part that a leader line points to. Output ONLY valid JSON in exactly this shape:
{SCHEMA}
"""
desc = """
You are an experienced physics teacher labeling a detailed schematic of {{subject}}, drawn
as in a physics textbook. Name EVERY part that a leader line points to. Output ONLY valid
JSON in exactly this shape:
{SCHEMA}
"""
'''


def test_the_card_set_is_the_default_and_builds_the_card_text():
    for condition in ALL_CONDITIONS:
        marks = ["1", "2"] if condition.startswith("slots") else []
        assert CARD_PROMPTS.build(condition, "x", marks) == build_prompt(condition, "x", marks)
    assert [needs_image(c) for c in ALL_CONDITIONS] == [True, True, True, False, True, False]


def test_the_slot_prompt_is_told_with_the_smallest_change():
    told = build_prompt("told", "the human heart").splitlines()
    slots = build_prompt("slots", "the human heart", ["1", "2", "3"]).splitlines()
    changed = [line for line in difflib.ndiff(told, slots) if line.startswith(("- ", "+ "))]
    # four lines of told change: the parenthesis and the task (re-wrapped over two lines),
    # the shape line ("one entry per mark") and the schema's entry (a number, no hint)
    assert len(changed) == 8
    assert told[:2] == slots[:2] and told[4:8] == slots[4:8] and told[9:11] == slots[9:11]
    assert "a mark remains: 1, 2, 3)" in slots[2]
    assert slots[-2] == '  "labels": [ {"number": 1, "name": "<term>"} ]'
    assert build_prompt("slots-no-image", "s", ["A"]) == build_prompt("slots", "s", ["A"])


def test_a_physics_set_is_validated_and_no_image_sends_told():
    physics = PromptSet.from_toml(PHYSICS)
    assert physics.name == "physics apparatus"
    assert physics.build("no-image", "a pendulum") == physics.build("told", "a pendulum")
    assert "a pendulum" in physics.build("desc", "a pendulum")
    with pytest.raises(PromptSetError, match="no 'slots' prompt"):
        physics.build("slots", "a pendulum", ["1"])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda t: t.replace("desc = ", "described = "), "missing prompt"),
        (
            lambda t: t.replace("labeling a diagram of: {subject}.", "labeling a diagram."),
            "{subject}",
        ),
        (lambda t: t.replace('"location_hint": "<where in image>"', '"where": "?"', 1), "one JSON"),
        (lambda t: t.replace("[prompts]", "[prompt]"), "needs a [prompts] table"),
        (lambda t: t.replace('name = "physics', "name = physics"), "not valid TOML"),
        (
            lambda t: (
                t + 'slots = """\nName the part at each mark for {subject}.\n' + SCHEMA + '\n"""\n'
            ),
            "must contain {slots}",
        ),
    ],
    ids=[
        "missing desc",
        "no subject",
        "two schemas",
        "no table",
        "bad toml",
        "slots without marks",
    ],
)
def test_a_bad_prompt_set_is_refused_with_what_to_fix(change, problem):
    with pytest.raises(PromptSetError, match=problem.replace("[", r"\[").replace("{", r"\{")):
        PromptSet.from_toml(change(PHYSICS))


def test_a_project_asks_with_its_set_and_stores_the_hash_of_the_text_sent(tmp_path):
    with Project.create(tmp_path / "p") as project:
        project.items.add(
            NewItem(item_id="i1", subject="a pendulum", key=[KeyEntry("bob"), KeyEntry("string")])
        )
        assert prompts_used(project) == {c: CARD_PROMPTS.templates[c] for c in CONDITIONS}
        use_prompt_set(project, PHYSICS)
        physics = project_prompts(project)
        assert prompts_used(project)["told"] == physics.templates["told"]
        run(project, RunRequest([baseline_model()], ["no-image"]))
        (answer,) = project.responses.latest()
        assert answer.prompt_sha256 == prompt_sha256(physics.build("no-image", "a pendulum"))
        assert answer.prompt_sha256 != prompt_sha256(build_prompt("no-image", "a pendulum"))
        use_prompt_set(project, None)
        assert project_prompts(project) is CARD_PROMPTS


def test_labeler_prompts_set_show_and_reset(tmp_path):
    Project.create(tmp_path / "p").close()
    (tmp_path / "physics.toml").write_text(PHYSICS, encoding="utf-8")
    (tmp_path / "bad.toml").write_text(PHYSICS.replace("desc = ", "d = "), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def labeler(*args: str) -> subprocess.CompletedProcess:
        cmd = [sys.executable, "-m", "labeler", "prompts", *args]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)

    bad = labeler("set", str(tmp_path / "p"), str(tmp_path / "bad.toml"))
    assert bad.returncode != 0 and "missing prompt(s) for desc" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert labeler("set", str(tmp_path / "p"), str(tmp_path / "physics.toml")).returncode == 0
    shown = labeler("show", str(tmp_path / "p")).stdout
    assert "prompt set: physics apparatus" in shown
    assert "experienced physics teacher labeling a diagram of: {subject}." in shown
    assert "## slots: none" in shown
    assert labeler("reset", str(tmp_path / "p")).returncode == 0
    assert "prompt set: card (biology)" in labeler("show", str(tmp_path / "p")).stdout


def test_the_dataset_card_prints_the_prompts_actually_used(tmp_path):
    from labeler.export.exporter import export_project

    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="i1", subject="a pendulum", key=[KeyEntry("bob")]))
        run(project, RunRequest([baseline_model()], ["no-image"]))
        export_project(project, tmp_path / "card")
        use_prompt_set(project, PHYSICS)
        run(project, RunRequest([baseline_model()], ["no-image"]))  # new prompt text: asked again
        export_project(project, tmp_path / "physics")
        asked = project_prompts(project).templates["no-image"]
    card = (tmp_path / "card" / "README.md").read_text()
    assert build_prompt("no-image", "{subject}") in card
    printed = (tmp_path / "physics" / "README.md").read_text()
    assert "```\n" + asked + "\n```" in printed
    assert build_prompt("no-image", "{subject}") not in printed
