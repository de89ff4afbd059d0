"""Anthropic Messages API (``/v1/messages``), streamed.

The SDK refuses a non-streaming request whose ``max_tokens`` might run past ten
minutes (the card's ``max_tokens=24000``), and a long silent connection is what
networks drop. So the answer is streamed (server-sent events) and assembled
into the final message; ``timeout_s`` then bounds the silence between events,
not the whole answer. SDK retries are off; the runner retries — also when the
stream itself reports an error event (e.g. ``overloaded_error``) mid-answer.
``effort`` goes out as ``output_config.effort``, as on the card.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from labeler.providers.base import (
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
from labeler.usage import Usage

if TYPE_CHECKING:
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
        settings = self.config.settings
        body: dict[str, Any] = {
            "model": self.config.model,
            "max_tokens": settings["max_tokens"],
            "messages": [{"role": "user", "content": content}],
        }
        if "temperature" in settings:
            body["temperature"] = settings["temperature"]
        if "effort" in settings:
            body["output_config"] = {"effort": settings["effort"]}
        return body

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
