"""The Run view's model list: every model in ``models.toml``, and which can run here.

The core validates the file without requiring keys
(:func:`labeler.providers.config.load_models` with ``require_keys=False``) and
says which key variables are unset (:func:`~labeler.providers.config.missing_keys`),
so the view can list a model and name the variable to export instead of
refusing the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from labeler.providers.config import ModelConfig, baseline_model, load_models, missing_keys


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
    configs = load_models(path, require_keys=False) if path else []
    if not any(c.provider == "baseline" for c in configs):
        configs.insert(0, baseline_model())
    unset = missing_keys(configs)
    return [ModelChoice(c, unset.get(c.name)) for c in configs]
