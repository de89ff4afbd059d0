"""One :class:`ProviderSpec` per provider module: everything the rest of Labeler asks of it.

The config validator (which settings a model entry may carry, of which type, whether it
needs a key), the planner (how its images are fitted), the estimate (how its images are
counted in tokens, whether it is free) and the runner (how its SDK client is built, and
whether it has a batch API) all read this one record. Every field is required, so a new
provider that forgets one fails when its module is imported (and under mypy), not with a
``KeyError`` half way through a paid run.
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

from labeler.errors import LabelerError
from labeler.providers.base import CallRequest, CallResult, Provider

if TYPE_CHECKING:
    from labeler.providers.config import ModelConfig

#: item_id → (subject, key names): what the offline baseline predicts from.
Corpus = Mapping[str, tuple[str, Sequence[str]]]
#: Reads the project's corpus when (and only when) a provider needs it.
CorpusSource = Callable[[], Corpus | None] | None
#: ``required``: the entry must name ``api_key_env``; ``local-optional``: it may be left
#: out when ``base_url`` points at a server that takes no key; ``none``: it runs offline.
KeyRule = Literal["required", "local-optional", "none"]
#: A provider's batch job, in the four states that decide what Labeler does with it.
BatchState = Literal["pending", "ended", "expired", "cancelled", "failed"]


@dataclass(frozen=True)
class ImageLimits:
    """``max_edge``: longest side in pixels; ``max_base64``: bytes once base64-encoded."""

    max_edge: int | None
    max_base64: int


@dataclass(frozen=True)
class Setting:
    """A decode setting a provider accepts: its type and, if it has one, its range check.

    ``check`` returns what is wrong with a value (``None``: fine), so the validator can
    name the model entry and the fix in one message.
    """

    kind: type | tuple[type, ...]
    check: Callable[[float], str | None] | None = None


def _positive(value: float) -> str | None:
    return None if value > 0 else "must be positive"


def _temperature(value: float) -> str | None:
    return None if 0 <= value <= 2 else "must be between 0 and 2"


MAX_TOKENS = Setting(int, _positive)
TEMPERATURE = Setting((int, float), _temperature)


@dataclass(frozen=True)
class BatchStatus:
    """A batch job as its provider reports it: normalised ``state`` and the provider's own."""

    state: BatchState
    provider_state: str
    answered: int | None = None  # requests finished so far, if the provider says


class BatchApiError(LabelerError):
    """A provider refused or failed a batch operation (create, retrieve, results)."""


class BatchClient(abc.ABC):
    """One model's batch API through its official SDK (blocking calls: a batch is a few
    HTTP requests, not thousands). Failures are raised as :class:`BatchApiError`."""

    @abc.abstractmethod
    def submit(self, requests: Sequence[tuple[str, CallRequest]]) -> str:
        """Create one batch job of ``(custom_id, request)`` pairs; returns the provider's id."""

    @abc.abstractmethod
    def status(self, batch_id: str) -> BatchStatus:
        """Where the job is."""

    @abc.abstractmethod
    def results(self, batch_id: str) -> Iterator[tuple[str, CallResult]]:
        """Every finished request's ``(custom_id, result)``, in the provider's order.

        Requests the job never answered (expired, cancelled) may be missing or come back
        as ``api_error`` results; the caller treats a missing one as not answered.
        """

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the SDK client's connections."""


class SdkClient(Protocol):
    """What :class:`SdkBatchClient` asks of an SDK's client (a subclass names its own type)."""

    def close(self) -> None: ...


class SdkBatchClient(BatchClient):
    """A batch API behind one blocking SDK client whose failures share one error class.

    The three official SDKs differ in their calls but not in this: ``close`` releases the
    client, and an SDK error becomes a :class:`BatchApiError` that names the provider, the
    step and the provider's word for a job (``job``: "batch", "message batch", ...).
    """

    client: SdkClient

    def __init__(
        self, client: SdkClient, api_error: type[Exception], provider: str, job: str
    ) -> None:
        self.client = client
        self._api_error = api_error
        self._provider = provider
        self._job = job

    def close(self) -> None:
        self.client.close()

    @contextlib.contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """Raise an SDK error inside the block as ``<provider> could not <what> the <job>``."""
        try:
            yield
        except self._api_error as exc:
            message = f"{self._provider} could not {what} the {self._job}: {exc}"
            raise BatchApiError(message) from exc


@dataclass(frozen=True)
class BatchSupport:
    """A provider's batch API: its client and limits, and what its endpoint refuses.

    ``refuse`` returns why a model cannot be run through this batch API (a route or a
    setting the endpoint rejects), checked for every model before anything is submitted.
    ``max_requests`` and ``max_bytes`` bound one job; a bigger run is split into several.
    """

    client: Callable[[ModelConfig], BatchClient]
    max_requests: int
    max_bytes: int
    refuse: Callable[[ModelConfig], str | None]


@dataclass(frozen=True)
class ProviderSpec:
    """Everything about one provider that is not its request/response mapping.

    ``models``: the only model ids it has (``None``: any). ``image_limits``: what an
    image is fitted to (``None``: it is never sent one). ``image_tokens``: the provider's
    rule of thumb for one image's input tokens from its pixel size. ``thinking_tokens``: the
    output tokens a model's settings let it spend thinking beyond the answer (billed as
    output; the estimate adds them). ``free``: it costs nothing (no prices needed).
    ``required_settings``: settings its API requires.
    """

    name: str
    settings: Mapping[str, Setting]
    required_settings: tuple[str, ...]
    key: KeyRule
    models: tuple[str, ...] | None
    image_limits: ImageLimits | None
    image_tokens: Callable[[int, int], int]
    thinking_tokens: Callable[[Mapping[str, object]], int]
    free: bool
    client: Callable[[ModelConfig, CorpusSource], Provider]
    batch: BatchSupport | None


def no_thinking(settings: Mapping[str, object]) -> int:
    """For a provider whose settings reserve no thinking tokens the estimate can count."""
    return 0


def no_batch_refusal(config: ModelConfig) -> str | None:
    """For a batch API that accepts every setting its provider's module accepts."""
    return None
