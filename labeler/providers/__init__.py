"""Provider adapters: one module per provider, one normalised result (see ``base``).

``make_provider`` is the single place that maps a ``models.toml`` entry to its
adapter; the SDK imports happen there, only for providers actually used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from labeler.providers.base import Provider
from labeler.providers.config import ModelConfig

#: item_id → (subject, key names): what the offline baseline predicts from.
Corpus = Mapping[str, tuple[str, Sequence[str]]]


def make_provider(
    config: ModelConfig, corpus: Callable[[], Corpus | None] | None = None
) -> Provider:
    """The adapter for ``config``; ``corpus`` feeds the baseline (no corpus: an empty one).

    It is a callable so that only a baseline pays for reading the project's corpus.
    """
    if config.provider == "openai":
        from labeler.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(config, timeout_s=config.timeout_s)
    if config.provider == "anthropic":
        from labeler.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(config, timeout_s=config.timeout_s)
    if config.provider == "gemini":
        from labeler.providers.gemini_provider import GeminiProvider

        return GeminiProvider(config, timeout_s=config.timeout_s)
    if config.provider == "baseline":
        from labeler.providers.baseline import SubjectPriorBaseline

        return SubjectPriorBaseline((corpus() if corpus is not None else None) or {})
    raise ValueError(f"unknown provider {config.provider!r}")
