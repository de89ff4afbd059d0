"""Anthropic Messages API (``/v1/messages``), streamed.

The SDK refuses a non-streaming request whose ``max_tokens`` might run past ten
minutes (the card's ``max_tokens=24000``), and a long silent connection is what
networks drop. So the answer is streamed (server-sent events) and assembled
into the final message; ``timeout_s`` then bounds the silence between events,
not the whole answer. SDK retries are off; the runner retries — also when the
stream itself reports an error event (e.g. ``overloaded_error``) mid-answer.
``effort`` goes out as ``output_config.effort``, as on the card.

Batch mode (:class:`AnthropicBatches`, Message Batches) sends the same request bodies
as ``params``; Anthropic documents every Messages feature as available there, so
``effort`` is sent the same way, not dropped.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from labeler.providers.base import (
    API_ERROR,
    EMPTY,
    OK,
    REFUSED,
    TRUNCATED,
    CallRequest,
    CallResult,
    Provider,
    TransientError,
    classify_http_status,
)
from labeler.providers.config import ModelConfig
from labeler.providers.spec import (
    MAX_TOKENS,
    TEMPERATURE,
    BatchStatus,
    BatchSupport,
    ImageLimits,
    ProviderSpec,
    SdkBatchClient,
    Setting,
    no_batch_refusal,
    no_thinking,
)
from labeler.usage import Usage

if TYPE_CHECKING:
    import anthropic
    from anthropic.types import Message

_TRUNCATING = {"max_tokens", "model_context_window_exceeded"}


class AnthropicProvider(Provider):
    """One model behind an ``AsyncAnthropic`` client."""

    def __init__(self, config: ModelConfig, timeout_s: float) -> None:
        import anthropic

        self._anthropic = anthropic
        self.config = config
        self.client = anthropic.AsyncAnthropic(
            api_key=config.api_key(),
            base_url=config.base_url,
            max_retries=0,
            timeout=timeout_s,
        )

    def request_body(self, request: CallRequest) -> dict[str, Any]:
        """The keyword arguments for ``messages.stream`` (one user message, no ``system``)."""
        return request_body(self.config, request)

    async def _send(self, request: CallRequest) -> CallResult:
        anthropic = self._anthropic
        try:
            async with self.client.messages.stream(**self.request_body(request)) as stream:
                message = await stream.get_final_message()
        except anthropic.APIStatusError as exc:
            if exc.status_code < 400:  # an error event inside a 200 stream
                raise TransientError(f"error event mid-stream: {exc.message}") from exc
            return classify_http_status(
                exc.status_code, exc.message, exc.response.headers.get("retry-after")
            )
        except anthropic.APIConnectionError as exc:  # includes timeouts
            raise TransientError(f"{type(exc).__name__}: {exc}") from exc
        return _to_result(message)

    async def aclose(self) -> None:
        await self.client.close()


def request_body(config: ModelConfig, request: CallRequest) -> dict[str, Any]:
    """The Messages API parameters of one call (one user message, no ``system``)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": request.prompt}]
    if request.image is not None:
        content.append(
            {
                "type": "image",
                "source": {
                    "type": "base64",
                    "media_type": request.image.mime,
                    "data": base64.b64encode(request.image.data).decode("ascii"),
                },
            }
        )
    settings = config.settings
    body: dict[str, Any] = {
        "model": config.model,
        "max_tokens": settings["max_tokens"],
        "messages": [{"role": "user", "content": content}],
    }
    if "temperature" in settings:
        body["temperature"] = settings["temperature"]
    if "effort" in settings:
        body["output_config"] = {"effort": settings["effort"]}
    return body


def _to_result(message: Message) -> CallResult:
    usage = message.usage
    tokens = Usage(getattr(usage, "input_tokens", None), getattr(usage, "output_tokens", None))
    text = "".join(block.text for block in message.content if block.type == "text")
    stop = message.stop_reason
    if stop == "refusal":
        return CallResult(REFUSED, text or None, stop, usage=tokens)
    if not text.strip():
        return CallResult(EMPTY, "", stop, usage=tokens)
    status = TRUNCATED if stop in _TRUNCATING else OK
    return CallResult(status, text, stop, usage=tokens)


class AnthropicBatches(SdkBatchClient):
    """Message Batches: ``messages.batches.create`` / ``retrieve`` / ``results``."""

    client: anthropic.Anthropic

    def __init__(self, config: ModelConfig) -> None:
        import anthropic

        self.config = config
        client = anthropic.Anthropic(
            api_key=config.api_key(), base_url=config.base_url, timeout=config.timeout_s
        )
        super().__init__(client, anthropic.APIError, "Anthropic", "message batch")

    def submit(self, requests: Sequence[tuple[str, CallRequest]]) -> str:
        batch_requests: list[Any] = [
            {"custom_id": custom_id, "params": request_body(self.config, request)}
            for custom_id, request in requests
        ]
        with self._errors("create"):
            batch = self.client.messages.batches.create(requests=batch_requests)
        return batch.id

    def status(self, batch_id: str) -> BatchStatus:
        with self._errors("retrieve"):
            batch = self.client.messages.batches.retrieve(batch_id)
        counts = batch.request_counts
        answered = counts.succeeded + counts.errored + counts.canceled + counts.expired
        if batch.processing_status != "ended":
            return BatchStatus("pending", batch.processing_status, answered)
        if counts.expired:
            return BatchStatus("expired", "ended (some requests expired)", answered)
        if counts.canceled:
            return BatchStatus("cancelled", "ended (some requests canceled)", answered)
        return BatchStatus("ended", batch.processing_status, answered)

    def results(self, batch_id: str) -> Iterator[tuple[str, CallResult]]:
        with self._errors("read the results of"):
            for row in self.client.messages.batches.results(batch_id):
                result = row.result
                if result.type == "succeeded":
                    yield row.custom_id, _to_result(result.message)
                elif result.type == "errored":
                    error = result.error.error
                    text = f"batch request failed: {error.type}: {error.message}"
                    yield row.custom_id, CallResult(API_ERROR, None, None, error=text)
                else:  # canceled or expired: never answered
                    text = f"not answered: the batch request was {result.type}"
                    yield row.custom_id, CallResult(API_ERROR, None, None, error=text)


SPEC = ProviderSpec(
    name="anthropic",
    settings={"max_tokens": MAX_TOKENS, "temperature": TEMPERATURE, "effort": Setting(str)},
    required_settings=("max_tokens",),
    key="required",
    models=None,
    # Anthropic documents 1568 px on the long edge and 5 MB per image (base64).
    image_limits=ImageLimits(max_edge=1568, max_base64=5 * 1024 * 1024),
    image_tokens=lambda width, height: math.ceil(width * height / 750),
    thinking_tokens=no_thinking,
    free=False,
    client=lambda config, _corpus: AnthropicProvider(config, timeout_s=config.timeout_s),
    # 100,000 requests and 256 MB per batch (documented)
    batch=BatchSupport(AnthropicBatches, 100_000, 250 * 1024 * 1024, no_batch_refusal),
)
