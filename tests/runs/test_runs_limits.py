"""Per-model limits: each model its own pool and pace; the spending cap."""

from itertools import pairwise

import pytest

from labeler.errors import ConfigError, LabelerError
from labeler.providers.config import load_models
from labeler.runs.cost import estimate_call_cost
from labeler.runs.runner import RetryPolicy, RunOptions, RunRequest, plan_run, run
from tests.runs.runs_loopback import LoopbackServer
from tests.runs.runs_support import KEY_ENV, models_toml

FAST = RetryPolicy(base_delay_s=0.01)


def two_openai_models(tmp_path, fast_url, slow_url, fast="", slow=""):
    """Two OpenAI-compatible endpoints: the same provider type, so one pool before #12."""
    path = tmp_path / "two.toml"
    path.write_text(
        f"""
[[models]]
name = "cloud"
provider = "openai"
model = "gpt-test"
base_url = "{fast_url}/v1"
api_key_env = "{KEY_ENV}"
{fast}

[[models]]
name = "local"
provider = "openai"
model = "gpt-test"
base_url = "{slow_url}/v1"
api_key_env = "{KEY_ENV}"
{slow}
""",
        encoding="utf-8",
    )
    return load_models(path)


def test_a_slow_model_never_holds_up_another_models_calls(project, key_env, tmp_path):
    order = []
    with LoopbackServer() as fast, LoopbackServer(latency=0.4) as slow:
        models = two_openai_models(tmp_path, fast.url, slow.url)
        summary = run(
            project,
            RunRequest(models, ["told"]),
            RunOptions(concurrency=1, retry=FAST, on_progress=lambda p: order.append(p.last.model)),
        )
    assert summary.counts["ok"] == 6
    assert order == ["cloud"] * 3 + ["local"] * 3


def test_a_models_own_concurrency_overrides_the_runs_default(project, key_env, tmp_path):
    with LoopbackServer() as fast, LoopbackServer(latency=0.5) as slow:
        models = two_openai_models(tmp_path, fast.url, slow.url, slow="concurrency = 3")
        assert [m.concurrency for m in models] == [None, 3]
        run(project, RunRequest(models, ["told"]), RunOptions(concurrency=1, retry=FAST))
        arrivals = sorted(s.at for s in slow.seen)
    assert len(arrivals) == 3
    assert arrivals[-1] - arrivals[0] < 0.4  # all three in flight at once, not one by one


def test_requests_per_minute_spaces_every_request_start(project, key_env, tmp_path):
    with LoopbackServer() as fast, LoopbackServer() as other:
        models = two_openai_models(tmp_path, fast.url, other.url, fast="requests_per_minute = 300")
        summary = run(project, RunRequest(models, ["told", "blind"]), RunOptions(retry=FAST))
        paced = sorted(s.at for s in fast.seen)
        free = sorted(s.at for s in other.seen)
    assert summary.counts["ok"] == 12
    gaps = [b - a for a, b in pairwise(paced)]
    # 300 a minute: one start every 0.2 s. Arrival times jitter (the first call also opens the
    # connection; a busy machine delays one request and not the next), so the span after the
    # first call is held to the rate and each gap only to half the interval: unpaced calls
    # arrive ~0 s apart.
    assert len(paced) == 6 and paced[-1] - paced[1] >= 4 * 0.2 - 0.02
    assert min(gaps) >= 0.2 / 2
    assert free[-1] - free[0] < 0.2 * 5  # the other model is not paced


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("concurrency = 0", "concurrency must be a positive whole number, got 0"),
        ("concurrency = 2.5", "concurrency must be a positive whole number, got 2.5"),
        ("concurrency = true", "concurrency must be a positive whole number, got True"),
        ("requests_per_minute = -1", "requests_per_minute must be a positive number, got -1"),
        ("requests_per_minute = '60'", "requests_per_minute must be a positive number, got '60'"),
    ],
)
def test_bad_limits_are_one_clear_config_error(tmp_path, key_env, line, problem):
    with pytest.raises(ConfigError, match="model 'local': " + problem.replace(".", r"\.")):
        two_openai_models(tmp_path, "http://127.0.0.1:9", "http://127.0.0.1:9", slow=line)


def test_the_spending_cap_stops_within_one_calls_cost_and_a_rerun_resumes(
    project, server, key_env, tmp_path
):
    path = models_toml(tmp_path / "models.toml", server.url)
    models = load_models(path, only=["t/openai"])
    plan = plan_run(project, RunRequest(models, ["told", "blind", "desc", "no-image"]))
    estimates = [estimate_call_cost(c.model, c.prompt, c.image) for c in plan.calls]
    one_call = max(estimates)
    cap = sum(estimates) / 2
    capped = run(
        project,
        RunRequest(models, ["told", "blind", "desc", "no-image"]),
        RunOptions(retry=FAST, max_cost_usd=cap),
        plan,
    )
    assert capped.capped and not capped.cancelled
    assert 0 < capped.sent < capped.planned == 12
    assert len(server.seen) == capped.sent  # nothing sent beyond what was stored
    assert capped.cost_usd <= cap
    assert cap - capped.cost_usd < one_call
    rest = run(project, RunRequest(models, ["told", "blind", "desc", "no-image"]))
    assert not rest.capped and rest.sent == 12 - capped.sent
    assert set(server.counts.values()) == {1}


def test_a_cap_with_an_unpriced_model_is_refused_before_anything_is_sent(
    project, server, key_env, tmp_path
):
    path = models_toml(tmp_path / "models.toml", server.url)
    models = load_models(path, only=["t/anthropic"])
    with pytest.raises(LabelerError, match="t/anthropic has none"):
        run(project, RunRequest(models, ["told"]), RunOptions(max_cost_usd=1.0))
    assert server.seen == []
