"""OpenAI chat completions — and, through ``base_url``, OpenRouter and local servers.

Ollama, vLLM, llama.cpp and LM Studio all speak ``/v1/chat/completions``, so the
same adapter is the no-cloud route. The SDK's own retries are off (the runner
retries, honouring ``Retry-After``). ``max_tokens`` is sent as
``max_completion_tokens`` when ``reasoning_effort`` is set, as reasoning models
require (the card's gpt-5.6-luna row); otherwise as ``max_tokens``.

The body is sent with the SDK's generic ``client.post`` rather than
``chat.completions.create``: the same client, auth, timeouts and error classes,
but without re-walking our already-plain request through the SDK's parameter
transform and the reply through its response models — together about 40% of
the per-call CPU (``bench/run.py``). The reply is read as plain JSON, which also
tolerates the nulls some OpenAI-compatible local servers send.
"""

from __future__ import annotations

from typing import Any

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
from labeler.providers.images import data_url
from labeler.usage import Usage


class OpenAIProvider(Provider):
    """One model behind an ``AsyncOpenAI`` client."""

    def __init__(self, config: ModelConfig, timeout_s: float) -> None:
        import openai

        self._openai = openai
        self.config = config
        self.client = openai.AsyncOpenAI(
            api_key=config.api_key(),
            base_url=config.base_url,
            max_retries=0,
            timeout=timeout_s,
        )

    async def _send(self, request: CallRequest) -> CallResult:
        openai = self._openai
        try:
            response = await self.client.post(
                "/chat/completions", body=chat_body(self.config, request), cast_to=object
            )
        except openai.APIStatusError as exc:
            return classify_http_status(
                exc.status_code, exc.message, exc.response.headers.get("retry-after")
            )
        except openai.APIConnectionError as exc:  # includes timeouts
            raise TransientError(f"{type(exc).__name__}: {exc}") from exc
        return _to_result(response)

    async def aclose(self) -> None:
        await self.client.close()


def chat_body(config: ModelConfig, request: CallRequest) -> dict[str, Any]:
    """The JSON body of ``POST /chat/completions`` (one user message, no system message)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": request.prompt}]
    if request.image is not None:
        content.append(
            {
                "type": "image_url",
                "image_url": {"url": data_url(request.image), "detail": "high"},
            }
        )
    body: dict[str, Any] = {
        "model": config.model,
        "messages": [{"role": "user", "content": content}],
    }
    settings = config.settings
    if "temperature" in settings:
        body["temperature"] = settings["temperature"]
    if "reasoning_effort" in settings:
        body["reasoning_effort"] = settings["reasoning_effort"]
    if "max_tokens" in settings:
        key = "max_completion_tokens" if "reasoning_effort" in settings else "max_tokens"
        body[key] = settings["max_tokens"]
    return body


def _to_result(response: object) -> CallResult:
    """Map the JSON of a chat completion; tolerant of the nulls local servers send."""
    if not isinstance(response, dict):
        return CallResult(API_ERROR, None, None, error="response is not a JSON object")
    usage = response.get("usage") or {}
    details = usage.get("completion_tokens_details") or {}
    tokens = Usage(
        usage.get("prompt_tokens"),
        usage.get("completion_tokens"),
        details.get("reasoning_tokens"),
    )
    choices = response.get("choices") or []
    if not choices:
        return CallResult(API_ERROR, None, None, error="response has no choices", usage=tokens)
    finish = choices[0].get("finish_reason")
    message = choices[0].get("message") or {}
    text = message.get("content") or ""
    refusal = message.get("refusal")
    if refusal or finish == "content_filter":
        return CallResult(REFUSED, refusal or text or None, finish, usage=tokens)
    if not text.strip():
        return CallResult(EMPTY, "", finish, usage=tokens)
    status = TRUNCATED if finish == "length" else OK
    return CallResult(status, text, finish, usage=tokens)
