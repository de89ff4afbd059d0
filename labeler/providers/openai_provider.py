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

Batch mode (:class:`OpenAIBatches`) sends the very same bodies as lines of a JSONL file
and reads each answer back through the same mapping.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

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
    no_thinking,
)
from labeler.usage import Usage

if TYPE_CHECKING:
    import openai


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


def _image_tokens(width: float, height: float) -> int:
    """``detail: high``: fit 2048², shortest side 768, then 170 tokens per 512-px tile + 85."""
    scale = min(1.0, 2048 / max(width, height))
    width, height = width * scale, height * scale
    scale = min(1.0, 768 / min(width, height))
    width, height = width * scale, height * scale
    return 85 + 170 * math.ceil(width / 512) * math.ceil(height / 512)


# Batch job states (``Batch.status``) by what Labeler does with them.
_BATCH_STATES: dict[str, BatchState] = {
    "validating": "pending",
    "in_progress": "pending",
    "finalizing": "pending",
    "cancelling": "pending",
    "completed": "ended",
    "expired": "expired",
    "cancelled": "cancelled",
    "failed": "failed",
}
_ENDPOINT: Final = "/v1/chat/completions"


class OpenAIBatches(SdkBatchClient):
    """The Batch API: a JSONL file of chat requests (``files.create``), ``batches.create``
    and ``retrieve``, then the output and error files (``files.content``)."""

    client: openai.OpenAI

    def __init__(self, config: ModelConfig) -> None:
        import openai

        self.config = config
        client = openai.OpenAI(
            api_key=config.api_key(), base_url=config.base_url, timeout=config.timeout_s
        )
        super().__init__(client, openai.APIError, "OpenAI", "batch")

    def submit(self, requests: Sequence[tuple[str, CallRequest]]) -> str:
        lines = (
            json.dumps(
                {
                    "custom_id": custom_id,
                    "method": "POST",
                    "url": _ENDPOINT,
                    "body": chat_body(self.config, request),
                },
                ensure_ascii=False,
            )
            for custom_id, request in requests
        )
        data = "\n".join(lines).encode("utf-8")
        with self._errors("create"):
            upload = self.client.files.create(file=("labeler-batch.jsonl", data), purpose="batch")
            batch = self.client.batches.create(
                input_file_id=upload.id, endpoint=_ENDPOINT, completion_window="24h"
            )
        return batch.id

    def status(self, batch_id: str) -> BatchStatus:
        with self._errors("retrieve"):
            batch = self.client.batches.retrieve(batch_id)
        counts = batch.request_counts
        answered = counts.completed + counts.failed if counts else None
        return BatchStatus(_BATCH_STATES.get(batch.status, "pending"), batch.status, answered)

    def results(self, batch_id: str) -> Iterator[tuple[str, CallResult]]:
        with self._errors("retrieve"):
            batch = self.client.batches.retrieve(batch_id)
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            with self._errors("read the results of"):
                text = self.client.files.content(file_id).text
            for line in text.splitlines():
                if line.strip():
                    row = json.loads(line)
                    yield str(row["custom_id"]), _batch_result(row)


def _batch_result(row: dict[str, Any]) -> CallResult:
    """One line of a batch's output or error file, mapped like a streamed answer."""
    response = row.get("response") or {}
    code = response.get("status_code")
    error = row.get("error")
    if error or code != 200:
        body = response.get("body") or {}
        detail = error or (body.get("error") if isinstance(body, dict) else None) or {}
        message = detail.get("message") or f"HTTP {code}"
        kind = detail.get("code") or (f"HTTP {code}" if code else "error")
        return CallResult(API_ERROR, None, None, error=f"batch request failed: {kind}: {message}")
    return _to_result(response.get("body"))


def _batch_refusal(config: ModelConfig) -> str | None:
    """Only OpenAI's own API has ``/v1/batches``; OpenRouter and local servers do not."""
    host = urlsplit(config.base_url).hostname if config.base_url else None
    if host and host.endswith("openrouter.ai"):
        return "OpenRouter has no batch API; run this model without --batch"
    return None


SPEC = ProviderSpec(
    name="openai",
    settings={
        "max_tokens": MAX_TOKENS,
        "temperature": TEMPERATURE,
        "reasoning_effort": Setting(str),
    },
    required_settings=(),
    key="local-optional",
    models=None,
    # OpenAI scales "detail: high" images itself; the request limit is on bytes.
    image_limits=ImageLimits(max_edge=None, max_base64=20 * 1024 * 1024),
    image_tokens=_image_tokens,
    thinking_tokens=no_thinking,
    free=False,
    client=lambda config, _corpus: OpenAIProvider(config, timeout_s=config.timeout_s),
    # 50,000 requests and 200 MB per input file (the Batch API's documented limits)
    batch=BatchSupport(OpenAIBatches, 50_000, 190 * 1024 * 1024, _batch_refusal),
)
