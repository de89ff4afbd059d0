"""Each provider adapter against a loopback server speaking its real HTTP API.

The server checks the request shape (one user message, no system prompt, the
image present or absent per condition with its real MIME type, the API key) and
answers in the provider's own response format, including its truncation and
refusal signals, 429 with Retry-After, 500s and slow answers.
"""

import pytest

from labeler.prompts import CONDITIONS, build_prompt, needs_image
from labeler.providers.config import load_models
from labeler.runs.runner import RetryPolicy, RunOptions, RunRequest, run
from tests.runs.runs_loopback import (
    ANSWER,
    blocked,
    empty,
    http_error,
    minimal,
    ok,
    refused,
    stream_error,
    truncated,
)
from tests.runs.runs_support import models_toml

PROVIDERS = ("openai", "anthropic", "gemini")
FAST = RetryPolicy(base_delay_s=0.01)
SENT_SETTINGS = {
    "openai": {"temperature": 0, "max_tokens": 8000},
    "anthropic": {"max_tokens": 24000, "output_config": {"effort": "high"}, "stream": True},
    "gemini": {
        "temperature": 0.0,
        "maxOutputTokens": 8000,
        "thinkingConfig": {"thinking_budget": 1024},
    },
}


def models(tmp_path, server, provider=None, **extra):
    only = [f"t/{provider}"] if provider else None
    return load_models(models_toml(tmp_path / "models.toml", server.url, **extra), only=only)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_request_shape_for_every_condition(project, server, key_env, tmp_path, provider):
    summary = run(
        project, RunRequest(models(tmp_path, server, provider), CONDITIONS), RunOptions(retry=FAST)
    )
    assert summary.counts["ok"] == 12 and summary.sent == 12
    assert server.violations == []
    expected = set()
    for item in project.items.list():
        image = project.assets.read(item.question_asset)
        for condition in CONDITIONS:
            prompt = build_prompt(condition, item.subject)
            expected.add((prompt, image if needs_image(condition) else None))
    assert {(s.prompt, s.image) for s in server.seen} == expected
    mimes = {s.image_mime for s in server.seen if s.image and s.image.startswith(b"\xff\xd8")}
    assert mimes == {"image/jpeg"}
    assert all(s.settings == SENT_SETTINGS[provider] for s in server.seen)
    rows = project.responses.latest()
    assert len(rows) == 12 and all(r.parse_ok and r.status == "ok" for r in rows)
    assert all(r.predicted_names == ["aorta", "left ventricle"] for r in rows)
    assert all(r.input_tokens and r.output_tokens and r.attempts == 1 for r in rows)
    for r in rows:
        assert (r.image_width, r.image_height) == (
            (None, None) if r.condition == "no-image" else (400, 300)
        )
        assert r.settings["model"].endswith("-test") and "api_key" not in str(r.settings)
        assert r.raw_text == ANSWER and r.latency_ms > 0


def test_reasoning_effort_sends_max_completion_tokens(project, server, key_env, tmp_path):
    extra = {"t/openai": {"reasoning_effort": "low"}}
    run(
        project,
        RunRequest(models(tmp_path, server, "openai", **extra), ["no-image"], ["heart"]),
        RunOptions(retry=FAST),
    )
    (seen,) = server.seen
    assert seen.settings == {
        "temperature": 0,
        "reasoning_effort": "low",
        "max_completion_tokens": 8000,
    }
    assert seen.image is None and server.violations == []


@pytest.mark.parametrize("provider", PROVIDERS)
def test_each_status_signal(project, server, key_env, tmp_path, provider):
    cut = ANSWER[: ANSWER.index("left ventricle")]
    server.script("of: the human heart", ok(f"Sure:\n```json\n{ANSWER}\n```"))
    server.script("of the human heart —", truncated(cut))
    server.script("of: valves of the heart", refused())
    server.script("of valves of the heart —", empty())
    server.script("of: the kidney nephron", ok("I cannot see the image, sorry."))
    server.script("of the kidney nephron —", http_error(400))
    run(
        project,
        RunRequest(models(tmp_path, server, provider), ["told", "desc"]),
        RunOptions(retry=FAST),
    )
    rows = {(r.item_id, r.condition): r for r in project.responses.latest()}
    fenced = rows["heart", "told"]
    assert (fenced.status, fenced.parse_ok, fenced.predicted_names) == (
        "ok",
        True,
        ["aorta", "left ventricle"],
    )
    cut_row = rows["heart", "desc"]
    assert (cut_row.status, cut_row.parse_ok, cut_row.predicted_names) == (
        "truncated",
        False,
        ["aorta"],
    )
    assert cut_row.finish_reason in ("length", "max_tokens", "MAX_TOKENS")
    assert rows["valves", "told"].status == "refused"
    assert rows["valves", "told"].finish_reason in ("stop", "refusal", "SAFETY")
    assert rows["valves", "told"].labels == []
    blank = rows["valves", "desc"]
    assert (blank.status, blank.raw_text, blank.parse_ok) == ("empty", "", False)
    assert "no answer text" in blank.error
    if provider == "openai":  # the loopback spends all 80 output tokens on reasoning
        assert "reasoning used the whole output budget (80 tokens)" in blank.error
    prose = rows["kidney", "told"]  # a plain-text decline is a refusal, not a parse error
    assert (prose.status, prose.parse_ok, prose.labels) == ("refused", False, [])
    assert prose.raw_text == "I cannot see the image, sorry." and "declined" in prose.error
    failed = rows["kidney", "desc"]
    assert (failed.status, failed.raw_text, failed.attempts) == ("api_error", None, 1)
    assert "HTTP 400" in failed.error and failed.labels == []
    assert server.violations == []


def test_gemini_prompt_block_is_a_refusal(project, server, key_env, tmp_path):
    server.script("of: the human heart", blocked())
    run(
        project,
        RunRequest(models(tmp_path, server, "gemini"), ["told"], ["heart"]),
        RunOptions(retry=FAST),
    )
    (row,) = project.responses.latest()
    assert (row.status, row.finish_reason, row.raw_text) == ("refused", "blockReason:SAFETY", None)


def test_retries_honour_retry_after_and_give_up_after_five(project, server, key_env, tmp_path):
    for provider in PROVIDERS:
        server.script("of: the human heart", http_error(429, retry_after="1"), provider=provider)
        server.script("of: valves", http_error(500), http_error(503), provider=provider)
        server.script("of: the kidney", *[http_error(500)] * 6, provider=provider)
    summary = run(project, RunRequest(models(tmp_path, server), ["told"]), RunOptions(retry=FAST))
    assert summary.counts["ok"] == 6 and summary.counts["api_error"] == 3
    rows = {(r.item_id, r.settings["provider"]): r for r in project.responses.latest()}
    for provider in PROVIDERS:
        assert rows["heart", provider].attempts == 2
        assert rows["valves", provider].attempts == 3
        gave_up = rows["kidney", provider]
        assert (gave_up.status, gave_up.attempts, gave_up.raw_text) == ("api_error", 5, None)
        assert "gave up after 5 attempts" in gave_up.error
        heart = [s.at for s in server.seen if s.provider == provider and "human heart" in s.prompt]
        assert len(heart) == 2 and heart[1] - heart[0] >= 0.95  # Retry-After, not 10 ms
        kidney = [s for s in server.seen if s.provider == provider and "kidney" in s.prompt]
        assert len(kidney) == 5  # no SDK retries stacked on ours
    assert server.violations == []


def test_slow_answer_times_out_and_is_retried(project, server, key_env, tmp_path):
    slow = {name: {"timeout_s": 1.0} for name in ("t/openai", "t/anthropic", "t/gemini")}
    for provider in PROVIDERS:
        server.script("of: the human heart", ok(delay=3.0), provider=provider)
    run(
        project,
        RunRequest(models(tmp_path, server, **slow), ["told"], ["heart"]),
        RunOptions(retry=FAST),
    )
    rows = project.responses.latest()
    assert len(rows) == 3
    assert all((r.status, r.attempts) == ("ok", 2) for r in rows)


def test_anthropic_error_event_mid_stream_is_retried(project, server, key_env, tmp_path):
    server.script("of: the human heart", stream_error())
    run(
        project,
        RunRequest(models(tmp_path, server, "anthropic"), ["told"], ["heart"]),
        RunOptions(retry=FAST),
    )
    (row,) = project.responses.latest()
    assert (row.status, row.attempts, row.predicted_names) == ("ok", 2, ["aorta", "left ventricle"])


def test_bare_local_server_reply_without_usage(project, server, key_env, tmp_path):
    server.script("of: the human heart", minimal())
    run(
        project,
        RunRequest(models(tmp_path, server, "openai"), ["told"], ["heart"]),
        RunOptions(retry=FAST),
    )
    (row,) = project.responses.latest()
    assert (row.status, row.input_tokens, row.cost_usd) == ("ok", None, None)
    assert row.predicted_names == ["aorta", "left ventricle"]
