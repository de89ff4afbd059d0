"""The runner on a real project: resume, --retry-failed, cancellation, progress, baseline."""

import sqlite3
import threading
import time

import pytest

from labeler.errors import LabelerError
from labeler.prompts import CONDITIONS
from labeler.providers.baseline import SubjectPriorBaseline
from labeler.providers.config import baseline_model, load_models
from labeler.runs.runner import RetryPolicy, RunOptions, RunRequest, plan_run, run
from labeler.store import NewItem, Project
from tests.runs.runs_loopback import LoopbackServer, http_error, ok, truncated
from tests.runs.runs_support import figure, make_project, models_toml

FAST = RetryPolicy(base_delay_s=0.01)


def openai_model(tmp_path, server, **settings):
    path = models_toml(tmp_path / "models.toml", server.url, **{"t/openai": settings})
    return load_models(path, only=["t/openai"])


def test_rerun_skips_finished_cells_and_sends_nothing(project, server, key_env, tmp_path):
    models = [*openai_model(tmp_path, server), baseline_model()]
    first = run(project, RunRequest(models, CONDITIONS), RunOptions(retry=FAST))
    assert (first.sent, first.skipped) == (24, 0)
    again = run(project, RunRequest(models, CONDITIONS), RunOptions(retry=FAST))
    assert (again.sent, again.skipped, again.run_id) == (0, 24, None)
    assert len(server.seen) == 12 and set(server.counts.values()) == {1}
    assert project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 24


def test_changed_settings_are_a_new_request(project, server, key_env, tmp_path):
    run(project, RunRequest(openai_model(tmp_path, server), ["told"]), RunOptions(retry=FAST))
    warmer = openai_model(tmp_path, server, temperature=0.5)
    plan = plan_run(project, RunRequest(warmer, ["told"]))
    assert len(plan.calls) == 3 and plan.skipped == 0
    run(project, RunRequest(warmer, ["told"]), RunOptions(retry=FAST), plan=plan)
    assert {r.settings["temperature"] for r in project.responses.latest()} == {0.5}


def test_failed_cells_are_resent_only_with_retry_failed(project, server, key_env, tmp_path):
    models = openai_model(tmp_path, server)
    server.script("of: the human heart", http_error(400))
    server.script("of: the kidney", truncated('{"labels": [{"name": "glomerulus"}, {"na'))
    first = run(project, RunRequest(models, ["told"]), RunOptions(retry=FAST))
    assert (first.counts["api_error"], first.counts["truncated"], first.counts["ok"]) == (1, 1, 1)
    plain = plan_run(project, RunRequest(models, ["told"]))
    assert (len(plain.calls), plain.skipped) == (0, 3)
    retry = run(project, RunRequest(models, ["told"], retry_failed=True), RunOptions(retry=FAST))
    assert (retry.sent, retry.skipped, retry.counts["ok"]) == (2, 1, 2)
    assert [r.status for r in project.responses.history("heart", "t/openai", "told")] == [
        "api_error",
        "ok",
    ]
    assert {r.status for r in project.responses.latest()} == {"ok"}
    assert sorted(server.counts.values()) == [1, 2, 2]  # the ok cell was asked once


def test_cancel_stops_promptly_and_resume_finishes_the_rest(project, key_env, tmp_path):
    cancel = threading.Event()
    seen = []

    def on_progress(progress):
        seen.append(progress)
        if progress.done == 2:
            cancel.set()

    with LoopbackServer(latency=0.3) as server:
        models = openai_model(tmp_path, server)
        first = run(
            project,
            RunRequest(models, CONDITIONS),
            RunOptions(concurrency=1, retry=FAST, on_progress=on_progress, cancel=cancel),
        )
        assert first.cancelled and first.sent == 2 and len(seen) == 2
        assert [p.done for p in seen] == [1, 2] and seen[-1].counts["ok"] == 2
        assert seen[-1].total == 12 and seen[-1].last.status == "ok"
        stored = project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        assert stored == 2
        rest = run(project, RunRequest(models, CONDITIONS), RunOptions(concurrency=4, retry=FAST))
        assert (rest.sent, rest.skipped, rest.cancelled) == (10, 2, False)
    assert len(project.responses.latest()) == 12
    finished_twice = [c for c, n in server.counts.items() if n > 1]
    assert len(finished_twice) <= 1  # at most the one call in flight when cancelled


def test_progress_reports_cost_and_runs_are_recorded(project, server, key_env, tmp_path):
    progress = []
    summary = run(
        project,
        RunRequest(openai_model(tmp_path, server), ["told", "no-image"]),
        RunOptions(retry=FAST, on_progress=progress.append),
    )
    assert [p.done for p in progress] == list(range(1, 7))
    # loopback usage: 1200 in / 80 out with an image, 300 / 80 without; $2.5 / $10 per Mtok
    expected = 3 * (1200 * 2.5 + 80 * 10) / 1e6 + 3 * (300 * 2.5 + 80 * 10) / 1e6
    assert abs(summary.cost_usd - expected) < 1e-9
    assert abs(progress[-1].cost_usd - expected) < 1e-9
    row = project.db.execute("SELECT * FROM runs WHERE id = ?", (summary.run_id,)).fetchone()
    assert row["finished_at"] is not None
    assert {r.run_id for r in project.responses.latest()} == {summary.run_id}


def test_baseline_predicts_from_other_items_only(project):
    summary = run(project, RunRequest([baseline_model()], CONDITIONS))
    assert summary.counts["ok"] == 12 and summary.cost_usd == 0
    rows = {(r.item_id, r.condition): r for r in project.responses.latest()}
    # heart shares "heart" with valves only; its own key (left ventricle …) is never seen
    assert rows["heart", "told"].predicted_names == ["aorta", "mitral valve", "tricuspid valve"]
    assert rows["heart", "no-image"].predicted_names == rows["heart", "told"].predicted_names
    assert rows["kidney", "told"].predicted_names == []  # no item shares a subject word
    assert rows["kidney", "told"].parse_ok
    # blind hides the subject: the prior over all other items
    assert rows["heart", "blind"].predicted_names == ["aorta", "glomerulus"]
    assert all(r.settings["corpus"] for r in rows.values())


def test_baseline_ranks_by_frequency():
    corpus = {
        "a": ("heart", ["x"]),
        "b": ("heart valves", ["aorta", "valve"]),
        "c": ("heart chambers", ["aorta", "atrium"]),
        "d": ("leaf", ["stoma", "aorta"]),
    }
    baseline = SubjectPriorBaseline(corpus)
    assert baseline.predict("a") == ["aorta", "atrium"]
    assert baseline.predict("a", use_subject=False) == ["aorta", "atrium"]
    assert baseline.predict("d") == []


def test_item_without_question_image_runs_only_no_image(project, server, key_env, tmp_path):
    project.items.add(NewItem(item_id="bare", subject="the human eye"))
    plan = plan_run(project, RunRequest(openai_model(tmp_path, server), CONDITIONS, ["bare"]))
    assert [c.condition for c in plan.calls] == ["no-image"]
    assert len(plan.unrunnable) == 3 and "no question image" in plan.unrunnable[0]


def test_gui_style_worker_thread_is_cancelled_from_another_thread(tmp_path, key_env):
    folder = tmp_path / "proj"
    make_project(folder).close()
    cancel, first_answer, result = threading.Event(), threading.Event(), {}
    with LoopbackServer(latency=0.5) as server:
        models = openai_model(tmp_path, server)

        def work():  # a worker opens its own Project, as the GUI's workers do
            with Project.open(folder) as project:
                result["summary"] = run(
                    project,
                    RunRequest(models, CONDITIONS),
                    RunOptions(
                        concurrency=2,
                        retry=FAST,
                        on_progress=lambda p: first_answer.set(),
                        cancel=cancel,
                    ),
                )

        worker = threading.Thread(target=work)
        worker.start()
        assert first_answer.wait(15)
        asked = time.monotonic()
        cancel.set()
        worker.join(5)
        assert not worker.is_alive() and time.monotonic() - asked < 1.0
    summary = result["summary"]
    assert summary.cancelled and 1 <= summary.sent < 12
    with Project.open(folder) as project:
        assert len(project.responses.latest()) == summary.sent


def test_re_erased_image_resends_only_the_image_conditions(project, server, key_env, tmp_path):
    models = openai_model(tmp_path, server)
    run(project, RunRequest(models, CONDITIONS), RunOptions(retry=FAST))
    project.items.set_images(
        "heart",
        question_png=figure(seed=9),
        answer_png=figure(),
        question_pdf=None,
        erase_method="manual",
        erase_edits={},
    )
    plan = plan_run(project, RunRequest(models, CONDITIONS))
    assert sorted((c.item_id, c.condition) for c in plan.calls) == [
        ("heart", "blind"),
        ("heart", "desc"),
        ("heart", "told"),
    ]


def test_unknown_condition_and_item_are_user_errors(project):
    with pytest.raises(LabelerError, match="unknown condition"):
        plan_run(project, RunRequest([baseline_model()], ["told", "image-only"]))
    with pytest.raises(LabelerError, match="no item with id"):
        plan_run(project, RunRequest([baseline_model()], ["told"], ["nope"]))


def test_answers_with_bad_escapes_or_surrogates_lose_only_what_is_unreadable(
    project, key_env, tmp_path
):
    bad_escape = '{"diagram_is": "heart\\q", "labels": [{"name": "aorta"}]}'
    surrogate_label = '{"diagram_is": "valves", "labels": [{"name": "\\ud800"}]}'
    surrogate_text = 'Sure \ud800 {"labels": [{"name": "glomerulus"}, {"name": "x\ud800"}]}'
    with LoopbackServer() as server:
        server.script("of: the human heart", ok(bad_escape))
        server.script("of: the kidney", ok(surrogate_text))
        server.script("of: valves", ok(surrogate_label, delay=0.3))  # still in flight
        summary = run(
            project, RunRequest(openai_model(tmp_path, server), ["told"]), RunOptions(retry=FAST)
        )
        assert (
            summary.sent == 3 and summary.counts["ok"] == 2 and summary.counts["parse_error"] == 1
        )
    rows = {r.item_id: r for r in project.responses.latest()}
    heart, valves, kidney = rows["heart"], rows["valves"], rows["kidney"]
    assert heart.raw_text == bad_escape and heart.diagram_is == "heart\\q"
    assert [x["name"] for x in heart.labels] == ["aorta"] and heart.status == "ok"
    assert "invalid escapes kept as written" in heart.parse_notes
    assert valves.raw_text == surrogate_label and valves.labels == []
    assert "unpaired surrogate" in valves.error and valves.input_tokens
    assert kidney.raw_text == surrogate_text.replace("\ud800", "\\ud800")
    assert [x["name"] for x in kidney.labels] == ["glomerulus"] and kidney.status == "ok"
    assert "dropped 1 name(s) holding an unpaired surrogate" in kidney.parse_notes
    assert plan_run(project, RunRequest(openai_model(tmp_path, server), ["told"])).calls == []


@pytest.mark.sqlite_only  # a SQLite trigger makes the store fail
def test_a_store_failure_sends_nothing_new_but_keeps_the_answers_in_flight(
    project, key_env, tmp_path
):
    project.db.execute(
        "CREATE TEMP TRIGGER refuse BEFORE INSERT ON responses WHEN NEW.item_id = 'heart'"
        " BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
    )
    with LoopbackServer() as server:
        server.script("of: valves", ok(delay=0.3))  # in flight when the heart fails to store
        models = openai_model(tmp_path, server)
        with pytest.raises(sqlite3.IntegrityError, match="disk says no"):
            run(project, RunRequest(models, ["told"]), RunOptions(concurrency=2, retry=FAST))
        assert len(server.seen) == 2  # the kidney was never sent
    assert [(r.item_id, r.status) for r in project.responses.latest()] == [("valves", "ok")]
    assert project.db.execute("SELECT finished_at FROM runs").fetchone()[0] is not None
