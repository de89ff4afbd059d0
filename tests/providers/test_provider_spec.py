"""One provider, one module: a provider defined only in this test module (its adapter and
its ``SPEC``) is configured from models.toml, estimated and run like a built-in one."""

from __future__ import annotations

import io
import json
import math

import pytest
from PIL import Image

from labeler import providers
from labeler.errors import ConfigError
from labeler.providers.base import OK, CallRequest, CallResult, Provider
from labeler.providers.config import load_models
from labeler.providers.spec import MAX_TOKENS, ImageLimits, ProviderSpec, Setting
from labeler.runs.cost import estimate_call_cost
from labeler.runs.runner import RunRequest, plan_run, run
from labeler.usage import Usage


class _Echo(Provider):
    """Answers every prompt at once with the words of its subject, and says what it saw."""

    def __init__(self, shout: bool) -> None:
        self.shout = shout
        self.seen: list[CallRequest] = []

    async def _send(self, request: CallRequest) -> CallResult:
        self.seen.append(request)
        words = request.subject.split() if request.condition != "blind" else ["heart"]
        names = [w.upper() if self.shout else w for w in words]
        answer = {"diagram_is": "", "labels": [{"name": n, "location_hint": ""} for n in names]}
        return CallResult(OK, json.dumps(answer), "stop", Usage(1000, 100))


ECHOES: list[_Echo] = []


def _client(config, _corpus) -> Provider:
    echo = _Echo(bool(config.settings.get("shout")))
    ECHOES.append(echo)
    return echo


SPEC = ProviderSpec(
    name="echo",
    settings={"max_tokens": MAX_TOKENS, "shout": Setting(bool)},
    required_settings=("max_tokens",),
    key="none",
    models=None,
    image_limits=ImageLimits(max_edge=100, max_base64=1024 * 1024),
    image_tokens=lambda width, height: math.ceil(width * height / 100),
    thinking_tokens=lambda settings: 0,
    free=False,
    client=_client,
    batch=None,
)

MODELS = """
[[models]]
name = "t/echo"
provider = "echo"
model = "echo-1"
max_tokens = 50
price_input_per_mtok = 1.0
price_output_per_mtok = 10.0
"""


@pytest.fixture
def echo():
    providers.register(SPEC)
    ECHOES.clear()
    yield SPEC
    providers.unregister(SPEC.name)


def test_a_provider_defined_in_one_module_is_configured_estimated_and_run(echo, project, tmp_path):
    path = tmp_path / "models.toml"
    path.write_text(MODELS, encoding="utf-8")
    (model,) = load_models(path)
    assert model.spec is SPEC and dict(model.settings) == {"max_tokens": 50}

    plan = plan_run(project, RunRequest([model], ["told", "no-image"], ["heart"]))
    told = next(c for c in plan.calls if c.condition == "told")
    # its image limit fitted the 400x300 figure to 100 px on the long edge
    assert told.image is not None and (told.image.width, told.image.height) == (100, 75)
    assert Image.open(io.BytesIO(told.image.data)).size == (100, 75)
    # its own image-token rule (100x75 / 100 = 75 tokens) and prices price the estimate
    expected = ((len(told.prompt) // 4 + 75) * 1.0 + 50 * 10.0) / 1_000_000
    assert estimate_call_cost(model, told.prompt, told.image) == pytest.approx(expected)

    summary = run(project, RunRequest([model], ["told", "no-image"], ["heart"]))
    assert summary.counts["ok"] == 2
    (sent,) = ECHOES
    assert {r.condition for r in sent.seen} == {"told", "no-image"}
    stored = project.responses.latest(models=["t/echo"])
    assert {tuple(lab["name"] for lab in r.labels) for r in stored} == {("the", "human", "heart")}
    assert all(r.cost_usd == pytest.approx((1000 + 100 * 10) / 1_000_000) for r in stored)


def test_its_settings_are_validated_by_its_spec(echo, tmp_path):
    path = tmp_path / "models.toml"
    path.write_text(MODELS.replace("max_tokens = 50", 'max_tokens = 50\nshout = "yes"'))
    with pytest.raises(ConfigError, match="shout must be true or false"):
        load_models(path)
    path.write_text(MODELS.replace("max_tokens = 50", "max_tokens = 50\nshout = true"))
    assert load_models(path)[0].settings["shout"] is True
    path.write_text(MODELS.replace("max_tokens = 50", "max_tokens = 0"))
    with pytest.raises(ConfigError, match="max_tokens must be positive"):
        load_models(path)
    path.write_text(MODELS.replace("max_tokens = 50", ""))
    with pytest.raises(ConfigError, match="echo models need max_tokens"):
        load_models(path)
    path.write_text(MODELS.replace("max_tokens = 50", "thinking_budget = 5\nmax_tokens = 50"))
    with pytest.raises(ConfigError, match="thinking_budget applies only to gemini models"):
        load_models(path)


def test_an_unregistered_provider_is_a_config_error(tmp_path):
    path = tmp_path / "models.toml"
    path.write_text(MODELS, encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown provider 'echo'"):
        load_models(path)


def test_a_spec_missing_a_field_fails_where_it_is_written():
    with pytest.raises(TypeError, match="batch"):
        ProviderSpec(  # type: ignore[call-arg]
            name="half",
            settings={},
            required_settings=(),
            key="none",
            models=None,
            image_limits=None,
            image_tokens=lambda w, h: 0,
            thinking_tokens=lambda settings: 0,
            free=True,
            client=_client,
        )


def test_every_built_in_provider_declares_a_spec():
    known = providers.specs()
    assert list(known) == ["openai", "anthropic", "gemini", "baseline"]
    assert all(s.batch is not None for n, s in known.items() if n != "baseline")
