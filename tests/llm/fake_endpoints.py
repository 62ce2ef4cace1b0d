"""A local, scriptable stand-in for OpenAI Chat Completions and Anthropic Messages.

A real HTTP server (starlette under uvicorn) on 127.0.0.1 in a background thread. Each
test queues the replies it wants (status, headers, body, delay, or raw bytes, chunked or
closing the connection); once the queue is empty every request gets a plain "ok" reply in
the dialect of its path. A test can also add checks that refuse requests the way the real
API does (`demand_thinking_blocks`). The server records each request and the highest number
of requests in flight at once; `reset` starts afresh.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"


@dataclass(frozen=True)
class Scripted:
    """One reply to give: after `delay` seconds, `status` with `headers` and JSON `body`.

    `raw` replaces the JSON body with these exact bytes; `chunked` sends the body in pieces
    (chunked transfer coding); `close` ends the connection after the reply.
    """

    body: dict[str, Any] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None
    chunked: bool = False
    close: bool = False

    def content(self) -> bytes:
        return self.raw if self.raw is not None else json.dumps(self.body).encode()


# A check sees each request (path, JSON body) before the script; a reply it returns is sent instead.
Check = Callable[[str, dict[str, Any]], Scripted | None]


def fail(status: int, *, headers: dict[str, str] | None = None, delay: float = 0.0) -> Scripted:
    """An error reply with a body both SDKs understand."""
    body = {"type": "error", "error": {"type": "test_error", "message": f"scripted {status}"}}
    return Scripted(body=body, status=status, headers=headers or {}, delay=delay)


@dataclass(frozen=True)
class Seen:
    """One request as the server received it; `at` is time.monotonic() on arrival, `peer` the
    client's port (one per connection)."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float
    peer: int = 0


def openai_reply(
    text: str | None = "ok",
    *,
    tool_calls: Sequence[tuple[str, str, str]] = (),
    usage: dict[str, Any] | None = None,
    finish_reason: str = "stop",
    model: str = "fake-model",
) -> dict[str, Any]:
    """A Chat Completions body; tool calls are (id, name, raw argument text)."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls:
        message["tool_calls"] = [
            {"id": id_, "type": "function", "function": {"name": name, "arguments": raw}}
            for id_, name, raw in tool_calls
        ]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": usage or {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
    }


def anthropic_reply(
    text: str = "ok",
    *,
    tool_uses: Sequence[tuple[str, str, Any]] = (),
    thinking: Sequence[dict[str, Any]] = (),
    usage: dict[str, Any] | None = None,
    stop_reason: str = "end_turn",
    model: str = "fake-claude",
) -> dict[str, Any]:
    """A Messages body; tool uses are (id, name, input); `thinking` blocks come first."""
    content: list[dict[str, Any]] = list(thinking)
    content += [{"type": "text", "text": text}] if text else []
    content += [{"type": "tool_use", "id": id_, "name": name, "input": input_} for id_, name, input_ in tool_uses]
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage or {"input_tokens": 10, "output_tokens": 2},
    }


def thinking(text: str, signature: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": text, "signature": signature}


def redacted_thinking(data: str) -> dict[str, Any]:
    return {"type": "redacted_thinking", "data": data}


def demand_thinking_blocks(issued: Sequence[dict[str, Any]]) -> Check:
    """Refuse, as the Messages API does with extended thinking on, an assistant turn with tool use
    that does not start with the thinking blocks the model produced for it, unchanged."""

    def check(path: str, body: dict[str, Any]) -> Scripted | None:
        if path != ANTHROPIC_PATH:
            return None
        for turn in body.get("messages", []):
            blocks = turn.get("content")
            if turn.get("role") != "assistant" or not isinstance(blocks, list):
                continue
            if not any(b.get("type") == "tool_use" for b in blocks):
                continue
            leading = [b for b in blocks if b.get("type") in ("thinking", "redacted_thinking")]
            starts = blocks[: len(leading)] == leading
            if not leading or not starts or any(b not in issued for b in leading):
                message = (
                    "messages: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` "
                    "is enabled, a final `assistant` message must start with a thinking block."
                )
                error = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
                return Scripted(error, status=400)
        return None

    return check


class FakeEndpoint:
    """The server and its script; use as a context manager."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script: deque[Scripted] = deque()
        self.checks: list[Check] = []
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """Base URL for the Anthropic SDK (it appends /v1/messages)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        """Base URL for the OpenAI SDK (it appends /chat/completions)."""
        return f"{self.url}/v1"

    def script(self, *replies: Scripted | dict[str, Any]) -> None:
        """Queue replies; a bare dict is a 200 with that body."""
        with self._lock:
            for reply in replies:
                self._script.append(reply if isinstance(reply, Scripted) else Scripted(reply))

    def reset(self) -> None:
        """Forget the script and the record, once requests left from earlier tests end."""
        deadline = time.monotonic() + 5
        while self.in_flight and time.monotonic() < deadline:
            time.sleep(0.005)
        with self._lock:
            self._script.clear()
            self.checks.clear()
            self.requests.clear()
            self.max_in_flight = 0

    def bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return [seen.body for seen in self.requests]

    def __enter__(self) -> FakeEndpoint:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        app = Starlette(
            routes=[
                Route(OPENAI_PATH, self._handle, methods=["POST"]),
                Route(ANTHROPIC_PATH, self._handle, methods=["POST"]),
            ]
        )
        config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 5
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("fake endpoint did not start within 5 s")
            time.sleep(0.005)
        return self

    def __exit__(self, *exc_info: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.should_exit = True
        self._thread.join(timeout=5)

    async def _handle(self, request: Request) -> Response:
        arrived = time.monotonic()
        body = json.loads(await request.body())
        with self._lock:
            peer = request.client.port if request.client else 0
            self.requests.append(Seen(request.url.path, dict(request.headers), body, arrived, peer))
            refused = next((r for r in (check(request.url.path, body) for check in self.checks) if r), None)
            if refused is not None:
                reply = refused
            else:
                reply = self._script.popleft() if self._script else self._default(request.url.path)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(reply.delay)
        finally:
            with self._lock:
                self.in_flight -= 1
        headers = {**reply.headers, **({"connection": "close"} if reply.close else {})}
        if reply.chunked:
            return StreamingResponse(
                _pieces(reply.content()), status_code=reply.status, headers=headers, media_type="application/json"
            )
        return Response(reply.content(), status_code=reply.status, headers=headers, media_type="application/json")

    @staticmethod
    def _default(path: str) -> Scripted:
        return Scripted(openai_reply() if path == OPENAI_PATH else anthropic_reply())


async def _pieces(content: bytes) -> AsyncIterator[bytes]:
    for start in range(0, len(content), 7):
        yield content[start : start + 7]
        await asyncio.sleep(0)
