"""Google Gemini ``generateContent`` through ``google-genai``.

The image goes as inline data. The SDK retries nothing unless asked
(``retry_options`` unset), which is what we want: the runner retries. The API
version is pinned to ``v1beta`` (the SDK would use ``v1`` with a custom base URL).
``thinking_budget`` becomes ``thinkingConfig.thinkingBudget``; thought parts are
not answer text, but their tokens are billed as output and counted as reasoning.

Batch mode (:class:`GeminiBatches`) sends the same requests inline
(``client.batches.create``). ``thinking_budget`` is kept there: the SDK maps an inline
request's ``config`` to its ``generationConfig`` as for a single call (earlier SDKs
dropped it, googleapis/python-genai#1103); the loopback tests check it arrives.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

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
    BatchState,
    BatchStatus,
    BatchSupport,
    ImageLimits,
    ProviderSpec,
    SdkBatchClient,
    Setting,
    no_batch_refusal,
)
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
        from google.genai import errors

        self._errors = errors
        self._transport = _transport_errors()
        self.config = config
        self.client = _client(config, timeout_s)

    def request_args(self, request: CallRequest) -> dict[str, Any]:
        """The keyword arguments for ``aio.models.generate_content`` (no system instruction)."""
        return request_args(self.config, request)

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


def _client(config: ModelConfig, timeout_s: float) -> Any:
    from google import genai
    from google.genai import types

    return genai.Client(
        api_key=config.api_key(),
        http_options=types.HttpOptions(
            base_url=config.base_url, api_version="v1beta", timeout=int(timeout_s * 1000)
        ),
    )


def request_args(model: ModelConfig, request: CallRequest) -> dict[str, Any]:
    """The model, contents and config of one ``generateContent`` call."""
    from google.genai import types

    parts = [types.Part(text=request.prompt)]
    if request.image is not None:
        parts.append(types.Part.from_bytes(data=request.image.data, mime_type=request.image.mime))
    settings = model.settings
    config: dict[str, Any] = {}
    if "temperature" in settings:
        config["temperature"] = settings["temperature"]
    if "max_tokens" in settings:
        config["max_output_tokens"] = settings["max_tokens"]
    if "thinking_budget" in settings:
        config["thinking_config"] = types.ThinkingConfig(
            thinking_budget=cast(int, settings["thinking_budget"])  # validated by the SPEC
        )
    return {
        "model": model.model,
        "contents": [types.Content(role="user", parts=parts)],
        "config": types.GenerateContentConfig(**config),
    }


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


def _image_tokens(width: float, height: float) -> int:
    """258 tokens per 768-px tile; an image of 384 px or less is one tile."""
    if max(width, height) <= 384:
        return 258
    return 258 * math.ceil(width / 768) * math.ceil(height / 768)


# ``BatchJob.state`` by what Labeler does with it.
_BATCH_STATES: dict[str, BatchState] = {
    "JOB_STATE_SUCCEEDED": "ended",
    "JOB_STATE_EXPIRED": "expired",
    "JOB_STATE_CANCELLED": "cancelled",
    "JOB_STATE_FAILED": "failed",
}


class GeminiBatches(SdkBatchClient):
    """Batch mode with inline requests: ``batches.create`` / ``get``; the answers come back
    inline in the job (``dest.inlined_responses``), each with the key it was sent with."""

    client: Any

    def __init__(self, config: ModelConfig) -> None:
        from google.genai import errors

        self.config = config
        super().__init__(_client(config, config.timeout_s), errors.APIError, "Gemini", "batch job")

    def submit(self, requests: Sequence[tuple[str, CallRequest]]) -> str:
        from google.genai import types

        inline = []
        for custom_id, request in requests:
            args = request_args(self.config, request)
            inline.append(
                types.InlinedRequest(
                    contents=args["contents"], config=args["config"], metadata={"key": custom_id}
                )
            )
        with self._errors("create"):
            job = self.client.batches.create(
                model=self.config.model,
                src=inline,
                config=types.CreateBatchJobConfig(display_name="labeler"),
            )
        return str(job.name)

    def status(self, batch_id: str) -> BatchStatus:
        with self._errors("get"):
            job = self.client.batches.get(name=batch_id)
        state = _name(job.state) or "JOB_STATE_UNSPECIFIED"
        return BatchStatus(_BATCH_STATES.get(state, "pending"), state)

    def results(self, batch_id: str) -> Iterator[tuple[str, CallResult]]:
        with self._errors("get"):
            job = self.client.batches.get(name=batch_id)
        inline = (job.dest.inlined_responses if job.dest else None) or []
        for index, answer in enumerate(inline):
            custom_id = (answer.metadata or {}).get("key") or f"r{index}"  # else: request order
            if answer.error is not None or answer.response is None:
                error = answer.error
                text = f"batch request failed: {getattr(error, 'code', None)}: "
                text += str(getattr(error, "message", None) or "no response")
                yield custom_id, CallResult(API_ERROR, None, None, error=text)
            else:
                yield custom_id, _to_result(answer.response)


def _thinking_tokens(settings: Mapping[str, object]) -> int:
    """A positive ``thinking_budget`` may be spent in full (-1, dynamic, is not known)."""
    budget = settings.get("thinking_budget")
    return budget if isinstance(budget, int) and budget > 0 else 0


def _thinking_budget(value: float) -> str | None:
    return None if value >= -1 else "must be -1 (dynamic), 0 or positive"


SPEC = ProviderSpec(
    name="gemini",
    settings={
        "max_tokens": MAX_TOKENS,
        "temperature": TEMPERATURE,
        "thinking_budget": Setting(int, _thinking_budget),
    },
    required_settings=(),
    key="required",
    models=None,
    # Inline data shares a 20 MB request limit with the prompt.
    image_limits=ImageLimits(max_edge=None, max_base64=19 * 1024 * 1024),
    image_tokens=_image_tokens,
    thinking_tokens=_thinking_tokens,
    free=False,
    client=lambda config, _corpus: GeminiProvider(config, timeout_s=config.timeout_s),
    # inline requests: the whole batch request stays under 20 MB (documented)
    batch=BatchSupport(GeminiBatches, 10_000, 19 * 1024 * 1024, no_batch_refusal),
)
