"""What every provider adapter takes and returns, whatever its SDK speaks.

Each adapter turns one :class:`CallRequest` into one :class:`CallResult` with a
provider-neutral status, so the runner, the store and the review screens never
look at a provider's own response format. Failures that are worth another try
(HTTP 408, 409, 429 and 5xx — the statuses the OpenAI and Anthropic SDKs
themselves retry —, timeouts, dropped connections, and an error event in the
middle of an Anthropic stream) are raised as :class:`TransientError` so the
runner owns all retrying; anything else that fails is a result with
status ``api_error`` whose text is ``None`` — an error never becomes answer text.
"""

from __future__ import annotations

import abc
import time
from dataclasses import dataclass, field, replace

from labeler.status import RESPONSE_STATUSES, ResponseStatus
from labeler.usage import Usage

# Statuses a provider can report. ``parse_error`` is decided later by the runner,
# when an ``ok`` answer's text does not parse.
OK = ResponseStatus.OK
TRUNCATED = ResponseStatus.TRUNCATED
EMPTY = ResponseStatus.EMPTY
REFUSED = ResponseStatus.REFUSED
API_ERROR = ResponseStatus.API_ERROR
PARSE_ERROR = ResponseStatus.PARSE_ERROR
STATUSES: tuple[str, ...] = RESPONSE_STATUSES


@dataclass(frozen=True)
class ImagePayload:
    """An image exactly as it is sent: encoded bytes, their MIME type and pixel size."""

    data: bytes
    mime: str
    width: int
    height: int


@dataclass(frozen=True)
class CallRequest:
    """One user message: the prompt text, plus the question image unless ``no-image``.

    ``item_id``, ``subject`` and ``marks`` (a slot question's numbers) are only read by the
    offline baseline, which predicts from the project's corpus instead of from the prompt.
    """

    prompt: str
    image: ImagePayload | None
    item_id: str = ""
    subject: str = ""
    condition: str = ""
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallResult:
    """The normalised outcome of one call, with the tokens it used (see :class:`Usage`)."""

    status: str
    text: str | None
    finish_reason: str | None
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    error: str | None = None


class TransientError(Exception):
    """A failure worth retrying; ``retry_after`` is the server's wish in seconds, if any."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds form); ``None`` if absent or a date."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(0.0, seconds)


def classify_http_status(code: int, message: str, retry_after: str | None) -> CallResult:
    """408, 409, 429 and 5xx raise :class:`TransientError`; other HTTP errors are ``api_error``."""
    if code in (408, 409, 429) or code >= 500:
        raise TransientError(f"HTTP {code}: {message}", parse_retry_after(retry_after))
    return CallResult(
        status=API_ERROR, text=None, finish_reason=None, error=f"HTTP {code}: {message}"
    )


class Provider(abc.ABC):
    """One configured model behind one SDK client; ``call`` makes a single attempt."""

    async def call(self, request: CallRequest) -> CallResult:
        """Send ``request`` once and time it; raises :class:`TransientError` to ask for a retry."""
        start = time.perf_counter()
        result = await self._send(request)
        return replace(result, latency_s=time.perf_counter() - start)

    @abc.abstractmethod
    async def _send(self, request: CallRequest) -> CallResult:
        """Provider-specific request and response mapping."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook, most adapters own a client
        """Release the SDK client's connections."""
