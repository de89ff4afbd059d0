"""Batch mode end to end against the loopback batch APIs, through the official SDKs:
submit, poll while in progress, collect with one status per call, partial failure,
an expired half-finished job, the batch price, and never a call submitted twice."""

from __future__ import annotations

from collections import Counter

import pytest

from labeler.errors import ConfigError
from labeler.prompts import CONDITIONS
from labeler.providers.config import load_models
from labeler.providers.spec import BatchApiError
from labeler.runs.batch import collect_batches, run_batch
from labeler.runs.cost import call_cost, estimate_call_cost
from labeler.runs.runner import RunOptions, RunRequest, plan_run
from labeler.usage import Usage
from tests.runs.runs_loopback import http_error, refused, truncated
from tests.runs.runs_support import ITEMS, models_toml

PROVIDERS = ("openai", "anthropic", "gemini")
CELLS = len(ITEMS) * len(CONDITIONS)


def one_model(tmp_path, server, provider, **extra):
    extra = {f"t/{provider}": extra} if extra else {}
    path = models_toml(tmp_path / "models.toml", server.url, **extra)
    return load_models(path, only=[f"t/{provider}"])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_submit_then_collect_stores_every_answer_once_at_the_batch_price(
    provider, key_env, server, project, tmp_path
):
    models = one_model(tmp_path, server, provider)
    server.script("kidney nephron", truncated('{"labels": [{"name": "glom'), provider=provider)
    server.script("valves of the heart", refused(), provider=provider)
    first = run_batch(project, RunRequest(models))
    assert (first.submitted_calls, len(first.jobs), first.collected.stored) == (CELLS, 1, 0)
    assert len(server.batches.created) == 1 and not project.responses.latest()
    assert server.violations == []

    # in progress: a second run --batch submits nothing again and stores nothing yet
    again = run_batch(project, RunRequest(models))
    assert (again.submitted_calls, again.waiting, again.collected.stored) == (0, CELLS, 0)
    assert len(again.collected.pending) == 1 and len(server.batches.created) == 1

    done = collect_batches(project)
    assert done.finished == 1 and not done.pending
    rows = project.responses.latest()
    assert len(rows) == CELLS
    statuses = {(r.item_id, r.condition): r.status for r in rows}
    told = {"kidney": statuses[("kidney", "told")], "valves": statuses[("valves", "told")]}
    assert told == {"kidney": "truncated", "valves": "refused"}
    assert statuses[("heart", "blind")] == "ok"
    heart = next(r for r in rows if (r.item_id, r.condition) == ("heart", "told"))
    assert [lab["name"] for lab in heart.labels] == ["aorta", "left ventricle"]
    assert (heart.image_width, heart.image_height) == (400, 300)
    # half the price of the same tokens sent one by one (where the model has prices)
    full = call_cost(models[0], Usage(heart.input_tokens, heart.output_tokens))
    assert heart.cost_usd == (None if full is None else pytest.approx(full / 2))
    # every cell was asked exactly once, and a further run has nothing left to send
    assert sorted(server.counts.values()) == [1] * CELLS
    assert plan_run(project, RunRequest(models)).calls == []
    assert collect_batches(project).stored == 0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_partial_failure_keeps_the_answers_and_fails_only_the_failed_calls(
    provider, key_env, server, project, tmp_path
):
    models = one_model(tmp_path, server, provider)
    server.batches.policy.polls = 0
    server.script("kidney nephron", http_error(400), http_error(400), provider=provider)
    run_batch(project, RunRequest(models, ["told", "desc"]))
    collect_batches(project)
    rows = {(r.item_id, r.condition): r for r in project.responses.latest()}
    assert {k: r.status for k, r in rows.items() if k[0] == "kidney"} == {
        ("kidney", "told"): "api_error",
        ("kidney", "desc"): "api_error",
    }
    assert rows[("kidney", "told")].error.startswith("batch request failed")
    assert {r.status for k, r in rows.items() if k[0] != "kidney"} == {"ok"}
    # --retry-failed sends only the two failed calls, in a new job
    retry = run_batch(project, RunRequest(models, ["told", "desc"], retry_failed=True))
    assert retry.submitted_calls == 2 and len(server.batches.created) == 2
    collect_batches(project)
    assert {r.status for r in project.responses.latest()} == {"ok"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_expired_half_finished_job_keeps_its_answers_and_the_rest_are_retryable(
    provider, key_env, server, project, tmp_path
):
    models = one_model(tmp_path, server, provider)
    server.batches.policy.polls, server.batches.policy.end = 0, "expired"
    server.batches.policy.answered = CELLS // 2
    run_batch(project, RunRequest(models))
    summary = collect_batches(project)
    assert summary.counts["ok"] == CELLS // 2 and summary.counts["api_error"] == CELLS - CELLS // 2
    failed = [r for r in project.responses.latest() if r.status == "api_error"]
    assert all("expired" in r.error for r in failed)
    (job,) = project.batches.jobs()
    assert job.state == "expired" and job.collected_at is not None
    # a plain run keeps them (they are failures), --retry-failed re-sends exactly those
    server.batches.policy.end, server.batches.policy.answered = "ended", None
    assert run_batch(project, RunRequest(models)).submitted_calls == 0
    retry = run_batch(project, RunRequest(models, retry_failed=True))
    assert retry.submitted_calls == CELLS - CELLS // 2
    collect_batches(project)
    assert {r.status for r in project.responses.latest()} == {"ok"}
    # the answered half went once; only the half the expired job never answered went again
    assert Counter(server.counts.values()) == {1: CELLS // 2, 2: CELLS - CELLS // 2}


def test_settings_the_batch_endpoints_take_arrive_as_in_a_single_call(
    key_env, server, project, tmp_path
):
    """Anthropic ``effort`` goes as ``output_config.effort`` (the docs: every Messages feature
    works in a batch); Gemini ``thinking_budget`` as ``generationConfig.thinkingConfig``."""
    path = models_toml(tmp_path / "models.toml", server.url)
    models = load_models(path, only=["t/anthropic", "t/gemini"])
    server.batches.policy.polls = 0
    run_batch(project, RunRequest(models, ["told"], ["heart"]))
    settings = {s.provider: s.settings for s in server.seen}
    assert settings["anthropic"] == {"max_tokens": 24000, "output_config": {"effort": "high"}}
    assert settings["gemini"]["thinkingConfig"] == {"thinking_budget": 1024}  # as streamed
    assert settings["gemini"]["maxOutputTokens"] == 8000
    assert server.violations == []


def test_a_route_without_a_batch_api_is_refused_before_anything_is_submitted(
    key_env, server, project, tmp_path
):
    path = models_toml(tmp_path / "models.toml", server.url)
    text = path.read_text() + (
        '\n[[models]]\nname = "t/router"\nprovider = "openai"\nmodel = "qwen"\n'
        f'api_key_env = "{key_env}"\nbase_url = "https://openrouter.ai/api/v1"\n'
    )
    path.write_text(text)
    models = load_models(path)
    with pytest.raises(ConfigError, match="t/router: OpenRouter has no batch API"):
        run_batch(project, RunRequest(models))
    assert server.batches.created == [] and server.seen == []


def test_a_spending_cap_submits_only_what_fits_at_the_batch_price(
    key_env, server, project, tmp_path
):
    (model,) = one_model(tmp_path, server, "openai")
    plan = plan_run(project, RunRequest([model]))
    each = estimate_call_cost(model, plan.calls[0].prompt, plan.calls[0].image, batch=True)
    full = estimate_call_cost(model, plan.calls[0].prompt, plan.calls[0].image)
    assert each == pytest.approx(full / 2)
    # the first item's four calls cost about the same; a cap of 3.5 of them holds 3
    summary = run_batch(project, RunRequest([model], ["told"]), RunOptions(max_cost_usd=3.5 * each))
    assert summary.submitted_calls == 3 and summary.not_submitted == 0 and not summary.capped
    summary = run_batch(project, RunRequest([model]), RunOptions(max_cost_usd=1.5 * each))
    assert summary.capped and summary.submitted_calls == 1
    assert summary.estimated_usd <= 1.5 * each


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_collection_stopped_half_way_resumes_without_storing_anything_twice(
    provider, key_env, server, project, tmp_path
):
    models = one_model(tmp_path, server, provider)
    server.batches.policy.polls = 0
    run_batch(project, RunRequest(models))

    class Stop(Exception):
        pass

    def stop_after_five(response) -> None:
        stored.append(response)
        if len(stored) == 5:
            raise Stop

    stored: list = []
    with pytest.raises(Stop):
        collect_batches(project, on_answer=stop_after_five)
    assert len(project.responses.latest()) == 5
    (job,) = project.batches.jobs()
    assert job.collected_at is None and len(project.batches.open_calls(job.id)) == CELLS - 5
    done = collect_batches(project)
    assert done.stored == CELLS - 5 and done.finished == 1
    history = project.db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert history == CELLS  # each answer stored once
    assert len(server.batches.created) == 1


def test_a_refused_job_is_a_clear_error_and_the_jobs_before_it_are_kept(
    key_env, server, project, tmp_path
):
    path = models_toml(tmp_path / "models.toml", server.url)
    models = load_models(path, only=["t/openai", "t/anthropic"])
    server.batches.policy.refuse = "anthropic"
    with pytest.raises(BatchApiError, match="Anthropic could not create the message batch"):
        run_batch(project, RunRequest(models))
    (job,) = project.batches.jobs()  # the OpenAI job went in before and is kept
    assert job.model == "t/openai" and len(server.batches.created) == 1
    server.batches.policy.refuse = None
    again = run_batch(project, RunRequest(models))
    assert again.waiting == CELLS and again.submitted_calls == CELLS  # only anthropic's
    assert {j.model for j in project.batches.jobs()} == {"t/openai", "t/anthropic"}
