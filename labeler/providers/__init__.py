"""Provider adapters: one module per provider, each declaring one ``SPEC`` (see ``spec``).

``PROVIDER_MODULES`` is the one list of built-in providers: adding a provider is a new
module with a ``SPEC`` and a line here. A provider defined elsewhere (a plug-in, a test)
is added with :func:`register`. The modules are imported on first use and import their
SDK only when a client is built, so ``labeler --help`` stays fast.
"""

from __future__ import annotations

import importlib
import threading

from labeler.errors import ConfigError
from labeler.providers.base import Provider
from labeler.providers.config import ModelConfig
from labeler.providers.spec import Corpus, CorpusSource, ProviderSpec

__all__ = ["Corpus", "make_provider", "register", "spec_for", "specs", "unregister"]

PROVIDER_MODULES: tuple[str, ...] = (
    "labeler.providers.openai_provider",
    "labeler.providers.anthropic_provider",
    "labeler.providers.gemini_provider",
    "labeler.providers.baseline",
)
_registered: dict[str, ProviderSpec] = {}
_built_in: dict[str, ProviderSpec] = {}
_loading = threading.RLock()


def specs() -> dict[str, ProviderSpec]:
    """Every known provider's spec by name: the built-in ones, then any registered."""
    with _loading:  # a worker thread and the GUI thread may ask at once
        if not _built_in:
            loaded: dict[str, ProviderSpec] = {}
            for module in PROVIDER_MODULES:
                spec: ProviderSpec = importlib.import_module(module).SPEC
                loaded[spec.name] = spec
            _built_in.update(loaded)
    return {**_built_in, **_registered}


def spec_for(provider: str) -> ProviderSpec:
    """The spec of ``provider``; :class:`ConfigError` naming the known ones otherwise."""
    known = specs()
    if provider not in known:
        raise ConfigError(f"unknown provider {provider!r}; use one of {list(known)}")
    return known[provider]


def register(spec: ProviderSpec) -> None:
    """Make a provider defined outside this package known (replacing one of that name)."""
    _registered[spec.name] = spec


def unregister(name: str) -> None:
    """Forget a provider added with :func:`register`."""
    _registered.pop(name, None)


def make_provider(config: ModelConfig, corpus: CorpusSource = None) -> Provider:
    """The adapter for ``config``; ``corpus`` feeds the baseline (no corpus: an empty one).

    It is a callable so that only a baseline pays for reading the project's corpus.
    """
    return spec_for(config.provider).client(config, corpus)
