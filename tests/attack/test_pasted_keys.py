"""A key pasted into ``api_key_env`` is never echoed, whatever provider's shape it has.

The keys are generated here with each provider's documented prefix, alphabet and length
(no real key); before the fix, ``AIza…`` and ``gsk_…`` keys passed the variable-name check
and were printed in full in the "is not set" message.
"""

import random
import string

import pytest
from attack_support import assert_clear_error, cli, cli_in_process

from labeler.errors import ConfigError
from labeler.providers.config import load_models
from labeler.store import Project
from ui.run.models_file import load_choices

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
_rng = random.Random(13)


def _body(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


KEYS = {
    "openai": "sk-" + _body(ALNUM, 48),
    "openai-project": "sk-proj-" + _body(ALNUM + "_", 64),
    "openai-admin-underscore": "sk_" + _body(ALNUM, 40),
    "anthropic": "sk-ant-api03-" + _body(ALNUM, 86) + "AA",
    "google-aiza": "AIzaSy" + _body(ALNUM + "_", 33),
    "groq": "gsk_" + _body(ALNUM, 52),
    "xai": "xai-" + _body(ALNUM, 80),
    "openrouter": "sk-or-v1-" + _body(HEX, 64),
    "huggingface": "hf_" + _body(string.ascii_letters, 34),
    "aws-access-key": "AKIA" + _body(string.ascii_uppercase + string.digits, 16),
    "github-classic": "ghp_" + _body(ALNUM, 36),
    "github-fine-grained": "github_pat_" + _body(ALNUM, 22) + "_" + _body(ALNUM, 59),
    "mistral": _body(ALNUM, 32),
    "together": _body(HEX, 64),
    "deepseek": "sk-" + _body(HEX, 32),
    "jwt": "eyJhbGciOiJIUzI1NiJ9." + _body(ALNUM, 40) + "." + _body(ALNUM, 43),
    "with-spaces": "  gsk_" + _body(ALNUM, 52) + "  ",
}
NAMES = ["OPENAI_API_KEY", "GEMINI_API_KEY", "HF_TOKEN", "AZURE_OPENAI_KEY_2024", "K", "my_key"]


def _toml(tmp_path, key_env: str):
    path = tmp_path / "models.toml"
    path.write_text(
        "[[models]]\n"
        'name = "pasted"\nprovider = "openai"\nmodel = "gpt-x"\n'
        f"api_key_env = '{key_env}'\n",
        encoding="utf-8",
    )
    return path


def _assert_not_echoed(text: str, key: str) -> None:
    key = key.strip()
    assert key not in text
    for start in range(0, len(key) - 11):
        assert key[start : start + 12] not in text, "a 12-character piece of the key was echoed"


@pytest.mark.parametrize("shape", sorted(KEYS))
def test_the_config_loader_and_the_gui_check_refuse_a_pasted_key_without_echoing_it(
    tmp_path, shape
):
    key = KEYS[shape]
    toml = _toml(tmp_path, key)
    for load in (
        lambda: load_models(toml, env={}),
        lambda: load_models(toml, require_keys=False),
        lambda: load_choices(toml),  # the GUI's models-file check
    ):
        with pytest.raises(ConfigError) as err:
            load()
        assert "api_key_env must be the NAME of an environment variable" in str(err.value)
        _assert_not_echoed(str(err.value), key)


def test_the_cli_refuses_every_pasted_key_shape_without_echoing_it(tmp_path):
    Project.create(tmp_path / "p", name="keys").close()
    for shape, key in sorted(KEYS.items()):
        toml = _toml(tmp_path, key)
        for extra in ([], ["--dry-run"]):
            args = ("run", str(tmp_path / "p"), "--models", str(toml), *extra)
            runs = [cli_in_process(*args)]
            if shape in ("google-aiza", "groq") and not extra:  # the two echoed before #13
                runs.append(cli(*args))  # end to end, in a real process
            for code, out in runs:
                assert_clear_error(code, out, "api_key_env must be the NAME")
                _assert_not_echoed(out, key)


@pytest.mark.parametrize("name", NAMES)
def test_real_variable_names_still_load_and_are_named_when_unset(tmp_path, name):
    toml = _toml(tmp_path, name)
    assert load_models(toml, env={name: "value"})[0].api_key_env == name
    with pytest.raises(ConfigError, match=f"environment variable {name} is not set"):
        load_models(toml, env={})
