"""models.toml validation: every mistake is a one-line ConfigError before any call."""

from pathlib import Path

import pytest

from labeler.errors import ConfigError
from labeler.providers.config import BASELINE_NAME, load_models, missing_keys

ISSUE_EXAMPLE = """
[[models]]
name = "google/gemini-2.5-flash"   # the id written to results.jsonl `model`
provider = "gemini"                # openai | anthropic | gemini
model = "gemini-2.5-flash"         # the provider's model id
base_url = "http://127.0.0.1:9"    # optional
api_key_env = "GEMINI_API_KEY"     # env var that holds the key; never the key itself
temperature = 0                    # optional decode settings, passed through as given:
max_tokens = 8000                  #   max_tokens, temperature, reasoning_effort (openai),
thinking_budget = 1024             #   thinking_budget (gemini), effort (anthropic)
price_input_per_mtok = 0.30        # optional, for cost
price_output_per_mtok = 2.50
"""
ENV = {
    "GEMINI_API_KEY": "k",
    "OPENAI_API_KEY": "k",
    "ANTHROPIC_API_KEY": "k",
    "OPENROUTER_API_KEY": "k",
}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_issue_format_loads(tmp_path):
    (model,) = load_models(write(tmp_path, ISSUE_EXAMPLE), env=ENV)
    assert (model.name, model.provider, model.model) == (
        "google/gemini-2.5-flash",
        "gemini",
        "gemini-2.5-flash",
    )
    assert model.base_url == "http://127.0.0.1:9"
    assert dict(model.settings) == {"temperature": 0, "max_tokens": 8000, "thinking_budget": 1024}
    assert (model.price_input_per_mtok, model.price_output_per_mtok) == (0.30, 2.50)
    assert model.api_key_env == "GEMINI_API_KEY"


def test_example_file_in_resources_loads():
    path = Path(__file__).resolve().parents[2] / "labeler" / "data" / "models.example.toml"
    models = load_models(path, env=ENV)
    assert models[0].name == BASELINE_NAME
    local = [m for m in models if m.base_url and "localhost" in m.base_url]
    assert local and local[0].api_key_env is None  # the no-cloud route needs no key


def replace(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('provider = "gemini"', 'provider = "mistral"', "unknown provider 'mistral'"),
        ("max_tokens = 8000", 'max_tokens = "8000"', "max_tokens must be an integer"),
        ("max_tokens = 8000", "max_tokens = 0", "max_tokens must be positive"),
        ("temperature = 0 ", "temperature = true ", "temperature must be a number"),
        ("temperature = 0 ", "temperature = 7 ", "between 0 and 2"),
        ("thinking_budget = 1024", 'effort = "high"', "effort applies only to anthropic"),
        ("thinking_budget = 1024", "max_token = 1", "unknown key(s) ['max_token']"),
        ("price_output_per_mtok = 2.50", "price_output_per_mtok = -1", "non-negative number"),
        ('model = "gemini-2.5-flash"', "", "model is required"),
        ('api_key_env = "GEMINI_API_KEY"', "", "api_key_env is required"),
        ("[[models]]", "[models]", "no [[models]] entries"),
        ("[[models]]", "[[model]]", "unknown top-level key"),
        ("max_tokens = 8000", "max_tokens = = 1", "not valid TOML"),
    ],
)
def test_bad_entries_name_the_problem(tmp_path, old, new, message):
    path = write(tmp_path, replace(ISSUE_EXAMPLE, old, new))
    with pytest.raises(ConfigError, match=r"models\.toml") as err:
        load_models(path, env=ENV)
    assert message in str(err.value)


def test_missing_key_variable_is_reported_with_its_name(tmp_path):
    with pytest.raises(ConfigError, match="GEMINI_API_KEY is not set"):
        load_models(write(tmp_path, ISSUE_EXAMPLE), env={})


def test_only_selected_models_need_their_key(tmp_path):
    text = (
        ISSUE_EXAMPLE + '\n[[models]]\nname = "o"\nprovider = "openai"\nmodel = "m"\n'
        'api_key_env = "OPENAI_API_KEY"\n'
    )
    path = write(tmp_path, text)
    (model,) = load_models(path, env={"OPENAI_API_KEY": "k"}, only=["o"])
    assert model.name == "o"
    assert [m.name for m in load_models(path, env={}, only=[BASELINE_NAME])] == [BASELINE_NAME]
    with pytest.raises(ConfigError, match="no model named"):
        load_models(path, env=ENV, only=["nope"])


def test_a_file_loads_without_keys_and_missing_keys_names_the_unset_variables(tmp_path):
    text = (
        ISSUE_EXAMPLE + '\n[[models]]\nname = "o"\nprovider = "openai"\nmodel = "m"\n'
        'api_key_env = "OPENAI_API_KEY"\n'
        '\n[[models]]\nname = "local"\nprovider = "openai"\nmodel = "m"\n'
        'base_url = "http://127.0.0.1:9/v1"\n'
    )
    path = write(tmp_path, text)
    configs = load_models(path, env={}, require_keys=False)
    assert [c.name for c in configs] == ["google/gemini-2.5-flash", "o", "local"]
    assert missing_keys(configs, {}) == {
        "google/gemini-2.5-flash": "GEMINI_API_KEY",
        "o": "OPENAI_API_KEY",
    }
    assert missing_keys(configs, {"OPENAI_API_KEY": "k", "GEMINI_API_KEY": ""}) == {
        "google/gemini-2.5-flash": "GEMINI_API_KEY"
    }
    assert missing_keys(configs, ENV | {"OPENAI_API_KEY": "k"}) == {}
    # everything but the keys is still validated
    with pytest.raises(ConfigError, match="unknown provider"):
        load_models(
            write(tmp_path, replace(ISSUE_EXAMPLE, 'provider = "gemini"', 'provider = "x"')),
            env={},
            require_keys=False,
        )


def test_duplicate_names_and_anthropic_without_max_tokens(tmp_path):
    with pytest.raises(ConfigError, match="used twice"):
        load_models(write(tmp_path, ISSUE_EXAMPLE * 2), env=ENV)
    text = '[[models]]\nname = "a"\nprovider = "anthropic"\nmodel = "c"\napi_key_env = "K"\n'
    with pytest.raises(ConfigError, match="need max_tokens"):
        load_models(write(tmp_path, text), env={"K": "k"})


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no such models file"):
        load_models(tmp_path / "absent.toml")
