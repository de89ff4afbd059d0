"""OpenAI chat completions — and, through ``base_url``, OpenRouter and local servers.

Ollama, vLLM, llama.cpp and LM Studio all speak ``/v1/chat/completions``, so the
same adapter is the no-cloud route. The SDK's own retries are off (the runner
retries, honouring ``Retry-After``). ``max_tokens`` is sent as
``max_completion_tokens`` when ``reasoning_effort`` is set, as reasoning models
require (the card's gpt-5.6-luna row); otherwise as ``max_tokens``.
"""

from __future__ import annotations

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

    def request_body(self, request: CallRequest) -> dict:
        """The keyword arguments for ``chat.completions.create`` (no system message)."""
        content: list[dict] = [{"type": "text", "text": request.prompt}]
        if request.image is not None:
            content.append(
                {"type": "image_url", "image_url": {"url": data_url(request.image), "detail": "high"}}
            )
        body: dict = {"model": self.config.model, "messages": [{"role": "user", "content": content}]}
        settings = self.config.settings
        if "temperature" in settings:
            body["temperature"] = settings["temperature"]
        if "reasoning_effort" in settings:
            body["reasoning_effort"] = settings["reasoning_effort"]
        if "max_tokens" in settings:
            key = "max_completion_tokens" if "reasoning_effort" in settings else "max_tokens"
            body[key] = settings["max_tokens"]
        return body

    async def _send(self, request: CallRequest) -> CallResult:
        openai = self._openai
        try:
            response = await self.client.chat.completions.create(**self.request_body(request))
        except openai.APIStatusError as exc:
            return classify_http_status(
                exc.status_code, exc.message, exc.response.headers.get("retry-after")
            )
        except openai.APIConnectionError as exc:  # includes timeouts
            raise TransientError(f"{type(exc).__name__}: {exc}") from exc
        return _to_result(response)

    async def aclose(self) -> None:
        await self.client.close()


def _to_result(response) -> CallResult:
    usage = response.usage
    tokens = {
        "input_tokens": getattr(usage, "prompt_tokens", None),
        "output_tokens": getattr(usage, "completion_tokens", None),
        "reasoning_tokens": getattr(
            getattr(usage, "completion_tokens_details", None), "reasoning_tokens", None
        ),
    }
    if not response.choices:
        return CallResult(API_ERROR, None, None, error="response has no choices", **tokens)
    choice = response.choices[0]
    finish = choice.finish_reason
    message = choice.message
    text = message.content or ""
    refusal = getattr(message, "refusal", None)
    if refusal or finish == "content_filter":
        return CallResult(REFUSED, refusal or text or None, finish, **tokens)
    if not text.strip():
        return CallResult(EMPTY, "", finish, **tokens)
    status = TRUNCATED if finish == "length" else OK
    return CallResult(status, text, finish, **tokens)
