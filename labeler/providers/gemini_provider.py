"""Google Gemini ``generateContent`` through ``google-genai``.

The image goes as inline data. The SDK retries nothing unless asked
(``retry_options`` unset), which is what we want: the runner retries. The API
version is pinned to ``v1beta`` (the SDK would use ``v1`` with a custom base URL).
``thinking_budget`` becomes ``thinkingConfig.thinkingBudget``; thought parts are
not answer text, but their tokens are billed as output and counted as reasoning.
"""

from __future__ import annotations

import importlib
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
    from google.genai.types import GenerateContentResponse

_REFUSING = {
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_RECITATION",
}


def _transport_errors() -> tuple[type[BaseException], ...]:
    """Connection and timeout errors of whichever HTTP library the SDK picked."""
    errors: list[type[BaseException]] = [TimeoutError, ConnectionError]
    for name in ("httpx2", "httpx", "aiohttp"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        errors.append(getattr(module, "TransportError", None) or module.ClientError)
    return tuple(errors)


class GeminiProvider(Provider):
    """One model behind a ``genai.Client`` (its ``aio`` side)."""

    def __init__(self, config: ModelConfig, timeout_s: float) -> None:
        from google import genai
        from google.genai import errors, types

        self._types = types
        self._errors = errors
        self._transport = _transport_errors()
        self.config = config
        self.client = genai.Client(
            api_key=config.api_key(),
            http_options=types.HttpOptions(
                base_url=config.base_url, api_version="v1beta", timeout=int(timeout_s * 1000)
            ),
        )

    def request_args(self, request: CallRequest) -> dict[str, Any]:
        """The keyword arguments for ``aio.models.generate_content`` (no system instruction)."""
        types = self._types
        parts = [types.Part(text=request.prompt)]
        if request.image is not None:
            parts.append(
                types.Part.from_bytes(data=request.image.data, mime_type=request.image.mime)
            )
        settings = self.config.settings
        config: dict[str, Any] = {}
        if "temperature" in settings:
            config["temperature"] = settings["temperature"]
        if "max_tokens" in settings:
            config["max_output_tokens"] = settings["max_tokens"]
        if "thinking_budget" in settings:
            config["thinking_config"] = types.ThinkingConfig(
                thinking_budget=settings["thinking_budget"]
            )
        return {
            "model": self.config.model,
            "contents": [types.Content(role="user", parts=parts)],
            "config": types.GenerateContentConfig(**config),
        }

    async def _send(self, request: CallRequest) -> CallResult:
        try:
            response = await self.client.aio.models.generate_content(**self.request_args(request))
        except self._errors.APIError as exc:
            headers = getattr(exc.response, "headers", None) or {}
            return classify_http_status(
                int(exc.code or 0), str(exc.message or exc), headers.get("retry-after")
            )
        except self._transport as exc:
            raise TransientError(f"{type(exc).__name__}: {exc}") from exc
        return _to_result(response)

    async def aclose(self) -> None:
        await self.client.aio.aclose()


def _name(value: object) -> str | None:
    if value is None:
        return None
    return getattr(value, "value", None) or str(value)


def _to_result(response: GenerateContentResponse) -> CallResult:
    usage = response.usage_metadata
    visible = getattr(usage, "candidates_token_count", None)
    thoughts = getattr(usage, "thoughts_token_count", None)
    output = None if visible is None and thoughts is None else (visible or 0) + (thoughts or 0)
    tokens = Usage(getattr(usage, "prompt_token_count", None), output, thoughts)
    feedback = response.prompt_feedback
    block = _name(getattr(feedback, "block_reason", None))
    if block:
        return CallResult(REFUSED, None, f"blockReason:{block}", usage=tokens)
    if not response.candidates:
        return CallResult(EMPTY, "", None, usage=tokens)
    candidate = response.candidates[0]
    finish = _name(candidate.finish_reason)
    parts = (candidate.content.parts if candidate.content else None) or []
    text = "".join(p.text for p in parts if p.text and not p.thought)
    if finish in _REFUSING:
        return CallResult(REFUSED, text or None, finish, usage=tokens)
    if not text.strip():
        return CallResult(EMPTY, "", finish, usage=tokens)
    status = TRUNCATED if finish == "MAX_TOKENS" else OK
    return CallResult(status, text, finish, usage=tokens)
