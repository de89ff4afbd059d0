"""Reading ``models.toml`` for the Run view, including models whose key is missing.

:func:`labeler.providers.config.load_models` refuses a file in which any key
variable is unset — right for a run, but the Run view must *list* such models
and say which variable to set. So the file is validated by the core with every
variable treated as present, and the real environment decides what is runnable.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from labeler.providers.config import ModelConfig, baseline_model, load_models


class _EveryVariableSet(Mapping[str, str]):
    """An environment in which every variable has a (placeholder) value."""

    def __getitem__(self, name: str) -> str:
        return "set"

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


@dataclass(frozen=True)
class ModelChoice:
    """A model the view lists, and whether it can run here."""

    config: ModelConfig
    missing_key: str | None  # the unset variable, or None when runnable

    @property
    def runnable(self) -> bool:
        return self.missing_key is None


def load_choices(path: str | Path | None) -> list[ModelChoice]:
    """Every model in ``path`` (ConfigError if the file is bad), plus the offline baseline
    first unless the file already lists it."""
    configs = load_models(path, env=_EveryVariableSet()) if path else []
    if not any(c.provider == "baseline" for c in configs):
        configs.insert(0, baseline_model())
    return [ModelChoice(c, _missing_key(c)) for c in configs]


def _missing_key(config: ModelConfig) -> str | None:
    if config.api_key_env and not os.environ.get(config.api_key_env):
        return config.api_key_env
    return None
