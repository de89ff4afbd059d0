"""A loopback server speaking the three providers' HTTP APIs, for tests and the bench.

It implements ``POST /v1/chat/completions`` (OpenAI), ``POST /v1/messages``
(Anthropic) and ``POST /v1beta/models/{model}:generateContent`` (Gemini) on
127.0.0.1, and each provider's batch API (``loopback_batches`` and one module per
provider beside it) whose requests get the same checks and answers. It checks every
request's shape (one user message, no system prompt,
image present or absent, its MIME type matching its bytes, the API key), and
answers in each provider's real response format. Tests script replies per
prompt (429 with Retry-After, 500, slow answers, truncation, refusal, empty,
fenced JSON) and read back what was sent and how often each cell was asked.

Run as a script it serves until killed and prints its base URL:
``python tests/runs/runs_loopback.py --latency 0.1``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

API_KEY = "test-key"
ANSWER = json.dumps(
    {
        "diagram_is": "a diagram",
        "labels": [
            {"name": "aorta", "location_hint": "top"},
            {"name": "left ventricle", "location_hint": "bottom right"},
        ],
    }
)
_MAGIC = {
    b"\x89PNG\r\n\x1a\n": "image/png",
    b"\xff\xd8\xff": "image/jpeg",
    b"GIF8": "image/gif",
    b"RIFF": "image/webp",
}
_GEMINI_PATH = re.compile(r"^/v1beta/models/([^/:]+):generateContent$")


@dataclass(frozen=True)
class Reply:
    """What the server answers: ok | truncated | refused | empty | blocked | stream_error |
    minimal | http."""

    kind: str = "ok"
    text: str = ANSWER
    status: int = 200
    retry_after: str | None = None
    delay: float = 0.0


def ok(text: str = ANSWER, delay: float = 0.0) -> Reply:
    return Reply("ok", text, delay=delay)


def truncated(text: str) -> Reply:
    return Reply("truncated", text)


def refused() -> Reply:
    return Reply("refused", "I can't help with that.")


def empty() -> Reply:
    return Reply("empty", "")


def stream_error() -> Reply:
    """Anthropic only: an ``overloaded_error`` event in the middle of a streamed answer."""
    return Reply("stream_error")


def minimal(text: str = ANSWER) -> Reply:
    """OpenAI only: a bare completion as some local servers send it (no usage, no refusal)."""
    return Reply("minimal", text)


def blocked() -> Reply:
    return Reply("blocked", "")


def http_error(status: int, retry_after: str | None = None) -> Reply:
    return Reply("http", "", status=status, retry_after=retry_after)


class _Server(ThreadingHTTPServer):
    # The default backlog of 5 drops SYNs when 16 clients connect at once (1 s retransmit).
    request_queue_size = 128
    daemon_threads = True


@dataclass(frozen=True)
class Seen:
    """One request as received, reduced to what tests check."""

    provider: str
    model: str
    prompt: str
    image_mime: str | None
    image: bytes | None
    settings: dict
    cell: str
    at: float = field(default_factory=time.monotonic)


@dataclass
class _Script:
    match: str
    provider: str | None
    replies: list[Reply] = field(default_factory=list)


class LoopbackServer:
    """Threaded HTTP server on 127.0.0.1; use as a context manager."""

    def __init__(self, latency: float = 0.0, api_key: str = API_KEY) -> None:
        self.latency = latency
        self.api_key = api_key
        self.seen: list[Seen] = []
        self.violations: list[str] = []
        self.counts: Counter[str] = Counter()
        self._scripts: list[_Script] = []
        self._lock = threading.Lock()
        # (method, path pattern, handler(match, headers, raw body) -> (status, headers, body))
        self.routes: list[tuple[str, re.Pattern[str], Callable]] = []
        from tests.runs.loopback_batches import install_batch_apis

        self.batches = install_batch_apis(self)
        self._httpd = _Server(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def script(self, match: str, *replies: Reply, provider: str | None = None) -> None:
        """Requests whose prompt contains ``match`` (to ``provider``, if given) get ``replies``
        in order, then the default answer."""
        with self._lock:
            self._scripts.append(_Script(match, provider, list(replies)))

    def _next_reply(self, seen: Seen) -> Reply:
        with self._lock:
            for script in self._scripts:
                wanted = script.provider in (None, seen.provider)
                if wanted and script.match in seen.prompt and script.replies:
                    return script.replies.pop(0)
        return Reply()

    def _record_violation(self, problem: str) -> None:
        with self._lock:
            self.violations.append(problem)

    def _record(self, seen: Seen, problems: list[str]) -> None:
        with self._lock:
            self.seen.append(seen)
            self.counts[seen.cell] += 1
            self.violations += [f"{seen.provider}: {p}" for p in problems]


def cell_key(model: str, prompt: str, image: bytes | None) -> str:
    """Identifies a cell from the request alone: model, prompt, image bytes."""
    h = hashlib.sha256(f"{model}\0{prompt}\0".encode())
    h.update(image or b"")
    return h.hexdigest()[:16]


def _mime_of(data: bytes) -> str | None:
    return next((m for magic, m in _MAGIC.items() if data.startswith(magic)), None)


def _handler(server: LoopbackServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms stalls

        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            self._route("GET", b"")

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0)))
            if self._route("POST", raw):
                return
            body = json.loads(raw)
            path = self.path.split("?")[0]
            problems: list[str] = []
            try:
                self._dispatch(path, body, problems)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                server._record_violation(f"malformed request to {path}: {exc!r}")
                self._send(400, {"error": {"message": f"malformed request: {exc!r}"}})

        def _route(self, method: str, raw: bytes) -> bool:
            """A batch-protocol route (``server.routes``) answers, if one matches."""
            path = self.path.split("?")[0]
            for verb, pattern, handle in server.routes:
                match = pattern.match(path)
                if verb == method and match:
                    try:
                        status, headers, payload = handle(match, self.headers, raw)
                    except (KeyError, TypeError, ValueError, AttributeError) as exc:
                        server._record_violation(f"malformed request to {path}: {exc!r}")
                        status, headers = 400, {}
                        payload = {"error": {"message": f"malformed request: {exc!r}"}}
                    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                        self._send(status, payload, headers)
                    return True
            if method == "GET":
                self._send(404, {"error": {"message": f"no route {path}"}})
                return True
            return False

        def _dispatch(self, path: str, body: dict, problems: list[str]) -> None:
            if path == "/v1/chat/completions":
                provider, seen = "openai", _openai_request(body, self.headers, server, problems)
            elif path == "/v1/messages":
                provider, seen = (
                    "anthropic",
                    _anthropic_request(body, self.headers, server, problems),
                )
            elif _GEMINI_PATH.match(path):
                model = _GEMINI_PATH.match(path).group(1)
                provider = "gemini"
                seen = _gemini_request(model, body, self.headers, server, problems)
            else:
                self._send(404, {"error": {"message": f"no route {path}"}})
                return
            server._record(seen, problems)
            reply = server._next_reply(seen)
            time.sleep(server.latency + reply.delay)
            status, headers, payload = _render(provider, seen, reply)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._send(status, payload, headers)  # the client may have given up (timeout)

        def _send(
            self, status: int, payload: dict | str | bytes, headers: dict | None = None
        ) -> None:
            headers = {"content-type": "application/json", **(headers or {})}
            if isinstance(payload, bytes):
                data = payload
            else:
                data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
            self.send_response(status)
            self.send_header("content-length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _b64decode(data: str) -> bytes:
    """Standard or URL-safe base64, both valid in proto JSON (google-genai sends URL-safe)."""
    return base64.b64decode(data.replace("-", "+").replace("_", "/"), validate=True)


def _check_image(mime: str, data: bytes, problems: list[str]) -> None:
    actual = _mime_of(data)
    if actual != mime:
        problems.append(f"image declared {mime} but bytes are {actual}")


def _openai_request(body: dict, headers, server: LoopbackServer, problems: list[str]) -> Seen:
    if headers.get("authorization") != f"Bearer {server.api_key}":
        problems.append("missing or wrong bearer key")
    prompt, image, mime = "", None, None
    for part in _user_parts(body, problems):
        if part["type"] == "text":
            prompt += part["text"]
        elif part["type"] == "image_url":
            if part["image_url"].get("detail") != "high":
                problems.append("image detail is not high")
            head, _, data = part["image_url"]["url"].partition(",")
            mime = head.removeprefix("data:").removesuffix(";base64")
            image = base64.b64decode(data)
            _check_image(mime, image, problems)
        else:
            problems.append(f"unexpected content part {part['type']}")
    keys = ("temperature", "max_tokens", "max_completion_tokens", "reasoning_effort")
    settings = _settings(body, keys, problems)
    model = body.get("model", "")
    return Seen("openai", model, prompt, mime, image, settings, cell_key(model, prompt, image))


def _user_parts(body: dict, problems: list[str]) -> list[dict]:
    """The content parts of the one user message both APIs must be sent (else a problem)."""
    messages = body.get("messages", [])
    if len(messages) != 1 or messages[0].get("role") != "user":
        problems.append(f"expected one user message, got {[m.get('role') for m in messages]}")
    return messages[0]["content"] if messages else []


def _settings(body: dict, keys: tuple[str, ...], problems: list[str]) -> dict:
    """The decode settings sent; any key beyond model, messages and ``keys`` is a problem."""
    extra = set(body) - {"model", "messages", *keys}
    if extra:
        problems.append(f"unexpected request keys {sorted(extra)}")
    return {k: body[k] for k in keys if k in body}


def _anthropic_request(body: dict, headers, server: LoopbackServer, problems: list[str]) -> Seen:
    keys = {headers.get("x-api-key"), (headers.get("authorization") or "").removeprefix("Bearer ")}
    if server.api_key not in keys:
        problems.append("missing or wrong API key")
    if not headers.get("anthropic-version"):
        problems.append("missing anthropic-version header")
    if "system" in body:
        problems.append("system prompt sent")
    if "max_tokens" not in body:
        problems.append("max_tokens missing")
    prompt, image, mime = "", None, None
    for part in _user_parts(body, problems):
        if part["type"] == "text":
            prompt += part["text"]
        elif part["type"] == "image":
            source = part["source"]
            if source.get("type") != "base64":
                problems.append("image source is not base64")
            mime, image = source["media_type"], base64.b64decode(source["data"])
            _check_image(mime, image, problems)
        else:
            problems.append(f"unexpected content part {part['type']}")
    settings = _settings(body, ("max_tokens", "temperature", "output_config", "stream"), problems)
    model = body.get("model", "")
    return Seen("anthropic", model, prompt, mime, image, settings, cell_key(model, prompt, image))


def _gemini_request(
    model: str, body: dict, headers, server: LoopbackServer, problems: list[str]
) -> Seen:
    if headers.get("x-goog-api-key") != server.api_key:
        problems.append("missing or wrong x-goog-api-key")
    if "systemInstruction" in body or "system_instruction" in body:
        problems.append("system instruction sent")
    contents = body.get("contents", [])
    if len(contents) != 1 or contents[0].get("role") != "user":
        problems.append(f"expected one user content, got {[c.get('role') for c in contents]}")
    prompt, image, mime = "", None, None
    for part in contents[0].get("parts", []) if contents else []:
        if "text" in part:
            prompt += part["text"]
        elif "inlineData" in part:
            inline = part["inlineData"]  # proto JSON: either spelling of the field is valid
            mime = inline.get("mimeType", inline.get("mime_type"))
            image = _b64decode(inline["data"])
            _check_image(mime, image, problems)
        else:
            problems.append(f"unexpected part {sorted(part)}")
    extra = set(body) - {"contents", "generationConfig"}
    if extra:
        problems.append(f"unexpected request keys {sorted(extra)}")
    settings = body.get("generationConfig", {})
    return Seen("gemini", model, prompt, mime, image, settings, cell_key(model, prompt, image))


def _render(provider: str, seen: Seen, reply: Reply) -> tuple[int, dict, dict]:
    if reply.kind == "http":
        headers = {"retry-after": reply.retry_after} if reply.retry_after else {}
        return reply.status, headers, _error_body(provider, reply.status)
    usage_in, usage_out = 1200 if seen.image else 300, 80
    if provider == "openai":
        return 200, {}, _openai_body(seen, reply, usage_in, usage_out)
    if provider == "anthropic":
        message = _anthropic_body(seen, reply, usage_in, usage_out)
        if seen.settings.get("stream"):
            return 200, {"content-type": "text/event-stream"}, _anthropic_events(message, reply)
        return 200, {}, message
    return 200, {}, _gemini_body(seen, reply, usage_in, usage_out)


def _error_body(provider: str, status: int) -> dict:
    message = "rate limited" if status == 429 else "server error"
    if provider == "anthropic":
        kind = "rate_limit_error" if status == 429 else "api_error"
        return {"type": "error", "error": {"type": kind, "message": message}}
    if provider == "gemini":
        state = "RESOURCE_EXHAUSTED" if status == 429 else "INTERNAL"
        return {"error": {"code": status, "message": message, "status": state}}
    return {"error": {"message": message, "type": "rate_limit" if status == 429 else "server"}}


def _openai_body(seen: Seen, reply: Reply, usage_in: int, usage_out: int) -> dict:
    if reply.kind == "minimal":  # what some local servers send: no usage, no refusal field
        message = {"role": "assistant", "content": reply.text}
        return {
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": None,
        }
    content: str | None = reply.text
    refusal = None
    finish = {"ok": "stop", "truncated": "length", "empty": "length"}.get(reply.kind, "stop")
    reasoning = usage_out if reply.kind == "empty" else 0
    if reply.kind == "refused":
        content, refusal = None, reply.text
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": seen.model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "finish_reason": finish,
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": usage_in,
            "completion_tokens": usage_out,
            "total_tokens": usage_in + usage_out,
            "completion_tokens_details": {"reasoning_tokens": reasoning},
        },
    }


def _anthropic_body(seen: Seen, reply: Reply, usage_in: int, usage_out: int) -> dict:
    stop = {"truncated": "max_tokens", "refused": "refusal"}.get(reply.kind, "end_turn")
    content = [] if reply.kind == "empty" else [{"type": "text", "text": reply.text}]
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": seen.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": usage_in, "output_tokens": usage_out},
    }


def _anthropic_events(message: dict, reply: Reply) -> str:
    """The same message as the server-sent events of a streamed answer."""
    events = [
        (
            "message_start",
            {
                "message": {
                    **message,
                    "content": [],
                    "stop_reason": None,
                    "usage": {**message["usage"], "output_tokens": 1},
                }
            },
        )
    ]
    for index, block in enumerate(message["content"]):
        text = block["text"]
        events.append(
            ("content_block_start", {"index": index, "content_block": {"type": "text", "text": ""}})
        )
        for start in range(0, len(text), 40):
            delta = {"type": "text_delta", "text": text[start : start + 40]}
            events.append(("content_block_delta", {"index": index, "delta": delta}))
        events.append(("content_block_stop", {"index": index}))
    if reply.kind == "stream_error":
        error = {"type": "overloaded_error", "message": "Overloaded"}
        events.append(("error", {"error": error}))
    events.append(
        (
            "message_delta",
            {
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        )
    )
    events.append(("message_stop", {}))
    return "".join(
        f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n" for name, data in events
    )


def _gemini_body(seen: Seen, reply: Reply, usage_in: int, usage_out: int) -> dict:
    usage = {
        "promptTokenCount": usage_in,
        "candidatesTokenCount": usage_out,
        "thoughtsTokenCount": 40,
        "totalTokenCount": usage_in + usage_out + 40,
    }
    if reply.kind == "blocked":
        return {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": usage}
    finish = {"truncated": "MAX_TOKENS", "refused": "SAFETY", "empty": "MAX_TOKENS"}.get(
        reply.kind, "STOP"
    )
    parts = [{"text": "thinking about it", "thought": True}]
    if reply.kind in ("ok", "truncated"):
        parts.append({"text": reply.text})
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": finish, "index": 0}
        ],
        "usageMetadata": usage,
        "modelVersion": seen.model,
    }


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    server = LoopbackServer(latency=args.latency)
    with server:
        print(server.url, flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
