"""``models.toml``: which models to run, how to reach them, and their decode settings.

The file is validated completely before any call is made, so a typo costs a
one-line error instead of a half-finished paid run. Keys are never written in the
file, only the name of the environment variable that holds one; the key itself is
read from the environment when a client is built and is never stored.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.errors import ConfigError

if TYPE_CHECKING:
    from labeler.providers.spec import ProviderSpec

BASELINE_NAME = "baseline/subject-prior"

_PRICES = ("price_input_per_mtok", "price_output_per_mtok")
_IDENTITY = ("name", "provider", "model", "base_url", "api_key_env")
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_BATCH_DISCOUNT = 0.5
_LIMITS = ("concurrency", "requests_per_minute")
_GENERAL = {*_IDENTITY, *_PRICES, *_LIMITS, "timeout_s", "batch_discount"}
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Prefixes that start an API key or token rather than a variable name (case-sensitive:
# ``HF_TOKEN`` is a name, ``hf_…`` a Hugging Face token). Many of these keys are made of
# letters, digits and ``_`` only, so they pass the name check and would be echoed.
_KEY_PREFIX = re.compile(
    r"sk-|sk_|rk_|pk_|AIza|gsk_|xai-|hf_|AKIA|ASIA|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_"
    r"|glpat-|r8_|pplx-|nvapi-|eyJ|ya29\.|xox[abposr]-"
)
# A run of 16+ characters with a digit and a lower-case letter, between underscores, is
# random key material (Mistral, Together, DeepSeek keys), not a word of a variable name.
_KEY_RUN = re.compile(r"(?=[A-Za-z0-9]*[0-9])(?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]{16,}")


@dataclass(frozen=True)
class ModelConfig:
    """One ``[[models]]`` entry; ``settings`` holds only the decode settings that were given.

    ``timeout_s`` (optional, default 600) bounds one HTTP attempt; a timeout is retried.
    ``concurrency`` (calls in flight) and ``requests_per_minute`` are this model's own
    limits; ``None`` means the run's default concurrency and no rate limit. They are not
    part of the request hash: how fast a call is sent does not change its answer.
    ``batch_discount`` is the share of the price a batch API takes off (0.5: half price).
    """

    name: str
    provider: str
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    settings: Mapping[str, object] = field(default_factory=dict)
    price_input_per_mtok: float | None = None
    price_output_per_mtok: float | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    concurrency: int | None = None
    requests_per_minute: float | None = None
    batch_discount: float = DEFAULT_BATCH_DISCOUNT

    @property
    def spec(self) -> ProviderSpec:
        """This model's provider: its settings, limits, cost rules and batch support."""
        from labeler.providers import spec_for

        return spec_for(self.provider)

    def api_key(self) -> str:
        """The key from the environment (checked at load); local servers without one get a dummy."""
        if self.api_key_env is None:
            return "no-key"
        return os.environ[self.api_key_env]


def baseline_model() -> ModelConfig:
    """The built-in offline model, available without any configuration."""
    return ModelConfig(name=BASELINE_NAME, provider="baseline", model="subject-prior")


def load_models(
    path: str | os.PathLike[str],
    env: Mapping[str, str] | None = None,
    only: Sequence[str] | None = None,
    require_keys: bool = True,
) -> list[ModelConfig]:
    """Read and validate ``path``; raises :class:`ConfigError` naming the entry and the fix.

    Every entry is checked; with ``only`` (model names) just those are returned and
    only their key variables must be set, so one file can list models you have no
    key for. The built-in baseline may be named in ``only`` without being listed.
    ``require_keys=False`` skips the key check (everything else is still
    validated), for a caller that lists models and asks :func:`missing_keys`
    which ones cannot run yet.
    """
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such models file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: not valid TOML ({exc})") from None
    extra = set(data) - {"models"}
    if extra:
        raise ConfigError(f"{file}: unknown top-level key(s) {sorted(extra)}; expected [[models]]")
    entries = data.get("models")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{file}: no [[models]] entries")
    models = [_parse_entry(file, i, entry) for i, entry in enumerate(entries, start=1)]
    names = [m.name for m in models]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(f"{file}: model name(s) used twice: {dupes}")
    if only is not None:
        known = {m.name: m for m in models}
        known.setdefault(BASELINE_NAME, baseline_model())
        missing = [n for n in only if n not in known]
        if missing:
            raise ConfigError(f"{file}: no model named {missing}; configured: {sorted(known)}")
        models = [known[n] for n in dict.fromkeys(only)]
    unset = missing_keys(models, env) if require_keys else {}
    if unset:
        name, variable = next(iter(unset.items()))
        raise ConfigError(
            f"{file}: model {name!r}: environment variable {variable} is not set;"
            " export it with the API key"
        )
    return models


def missing_keys(
    configs: Iterable[ModelConfig], env: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Model name -> its key variable, for each model whose variable is unset or empty in ``env``
    (default: the process environment); models needing no key never appear."""
    env = os.environ if env is None else env
    return {
        c.name: c.api_key_env
        for c in configs
        if c.api_key_env is not None and not env.get(c.api_key_env)
    }


def _parse_entry(file: Path, index: int, entry: object) -> ModelConfig:
    from labeler.providers import specs

    where = f"{file}: models entry {index}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: must be a table")
    if isinstance(entry.get("name"), str) and entry["name"].strip():
        where = f"{file}: model {entry['name']!r}"
    known_specs = specs()
    known = _GENERAL.union(*(s.settings for s in known_specs.values()))
    unknown = sorted(set(entry) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(known)}")
    name = _required_text(entry, "name", where)
    provider = _required_text(entry, "provider", where)
    if provider not in known_specs:
        raise ConfigError(f"{where}: unknown provider {provider!r}; use one of {list(known_specs)}")
    spec = known_specs[provider]
    model = _required_text(entry, "model", where)
    if spec.models is not None and model not in spec.models:
        raise ConfigError(f"{where}: the {provider} provider has only {list(spec.models)}")
    base_url = _text(entry, "base_url", where)
    api_key_env = _key_variable(entry, where)
    if spec.key == "none" and api_key_env is not None:
        raise ConfigError(f"{where}: the {provider} provider runs offline and takes no api_key_env")
    if api_key_env is None and (
        spec.key == "required" or (spec.key == "local-optional" and not base_url)
    ):
        raise ConfigError(
            f"{where}: api_key_env is required (the name of the environment variable holding"
            " the key; only an openai-compatible local server with base_url may omit it)"
        )
    settings: dict[str, object] = {}
    for key in sorted(set(entry) - _GENERAL):
        value = entry[key]
        setting = spec.settings.get(key)
        if setting is None:
            takers = [s.name for s in known_specs.values() if key in s.settings]
            raise ConfigError(f"{where}: {key} applies only to {'/'.join(takers)} models")
        wrong_bool = isinstance(value, bool) and setting.kind is not bool
        if wrong_bool or not isinstance(value, setting.kind):
            raise ConfigError(f"{where}: {key} must be {_kind_name(setting.kind)}, got {value!r}")
        problem = setting.check(value) if setting.check and isinstance(value, int | float) else None
        if problem:
            raise ConfigError(f"{where}: {key} {problem}")
        settings[key] = value
    for key in spec.required_settings:
        if key not in settings:
            raise ConfigError(f"{where}: {provider} models need {key} (the API requires it)")
    timeout = entry.get("timeout_s", DEFAULT_TIMEOUT_S)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise ConfigError(f"{where}: timeout_s must be a positive number of seconds")
    return ModelConfig(
        name=name,
        provider=provider,
        model=model,
        base_url=base_url,
        api_key_env=api_key_env,
        settings={k: settings[k] for k in entry if k in settings},
        timeout_s=float(timeout),
        concurrency=_whole(_limit(entry, "concurrency", where, whole=True)),
        requests_per_minute=_limit(entry, "requests_per_minute", where, whole=False),
        price_input_per_mtok=_price(entry, "price_input_per_mtok", where),
        price_output_per_mtok=_price(entry, "price_output_per_mtok", where),
        batch_discount=_discount(entry, where),
    )


def _discount(entry: dict[str, object], where: str) -> float:
    """``batch_discount``: the share of the price a batch API takes off, 0 to 1."""
    value = entry.get("batch_discount", DEFAULT_BATCH_DISCOUNT)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ConfigError(
            f"{where}: batch_discount must be a share between 0 and 1 (0.5: batch calls cost"
            f" half), got {value!r}"
        )
    return float(value)


def _price(entry: dict[str, object], key: str, where: str) -> float | None:
    """An optional price in USD per million tokens."""
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(f"{where}: {key} must be a non-negative number, got {value!r}")
    return float(value)


def _limit(entry: dict[str, object], key: str, where: str, whole: bool) -> float | None:
    """An optional positive limit: a whole number of calls in flight, or calls per minute."""
    value = entry.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or (whole and not isinstance(value, int))
        or value <= 0
    ):
        what = "a positive whole number" if whole else "a positive number"
        raise ConfigError(f"{where}: {key} must be {what}, got {value!r}")
    return float(value)


def _whole(value: float | None) -> int | None:
    return None if value is None else int(value)


def _key_variable(entry: dict[str, object], where: str) -> str | None:
    """``api_key_env``, which must be a variable name; the value is never echoed back,
    because what gets pasted there by mistake is usually the key itself."""
    value = entry.get("api_key_env")
    if value is None:
        return None
    if not isinstance(value, str) or not _VARIABLE.fullmatch(value.strip()):
        raise ConfigError(
            f"{where}: api_key_env must be the NAME of an environment variable"
            " (letters, digits, _), not the key itself"
        )
    if looks_like_key(value.strip()):
        raise ConfigError(
            f"{where}: api_key_env must be the NAME of an environment variable, but this value"
            " looks like an API key itself (not shown); export the key as a variable such as"
            " OPENAI_API_KEY, put that name here, and revoke the key if the file was shared"
        )
    return value.strip()


def looks_like_key(value: str) -> bool:
    """Whether ``value`` has the shape of an API key or token rather than a variable name.

    Used so that nothing echoes a key pasted where a variable name belongs: a known
    provider prefix, or a random-looking run (16+ characters mixing digits and lower-case
    letters) between underscores, which real variable names (``GEMINI_API_KEY``) never have.
    """
    return bool(_KEY_PREFIX.match(value)) or any(
        _KEY_RUN.fullmatch(part) for part in value.split("_")
    )


def _required_text(entry: dict[str, object], key: str, where: str) -> str:
    value = _text(entry, key, where)
    if value is None:
        raise ConfigError(f"{where}: {key} is required")
    return value


def _text(entry: dict[str, object], key: str, where: str) -> str | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {key} must be a non-empty string, got {value!r}")
    return value.strip()


def _kind_name(kind: type | tuple[type, ...]) -> str:
    if kind is bool:
        return "true or false"
    if kind is int:
        return "an integer"
    return "a string" if kind is str else "a number"
