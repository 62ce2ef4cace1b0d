"""A local, scriptable stand-in for OpenAI Chat Completions and Anthropic Messages.

A real HTTP server (starlette under uvicorn) on 127.0.0.1 in a background thread. Each
test queues the replies it wants (status, headers, body, delay); once the queue is empty
every request gets a plain "ok" reply in the dialect of its path. The server records each
request and the highest number of requests in flight at once; `reset` starts afresh.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"


@dataclass(frozen=True)
class Scripted:
    """One reply to give: after `delay` seconds, `status` with `headers` and JSON `body`."""

    body: dict[str, Any] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def fail(status: int, *, headers: dict[str, str] | None = None, delay: float = 0.0) -> Scripted:
    """An error reply with a body both SDKs understand."""
    body = {"type": "error", "error": {"type": "test_error", "message": f"scripted {status}"}}
    return Scripted(body=body, status=status, headers=headers or {}, delay=delay)


@dataclass(frozen=True)
class Seen:
    """One request as the server received it; `at` is time.monotonic() on arrival."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float


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
    usage: dict[str, Any] | None = None,
    stop_reason: str = "end_turn",
    model: str = "fake-claude",
) -> dict[str, Any]:
    """A Messages body; tool uses are (id, name, input)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
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


class FakeEndpoint:
    """The server and its script; use as a context manager."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script: deque[Scripted] = deque()
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
            self.requests.append(Seen(request.url.path, dict(request.headers), body, arrived))
            reply = self._script.popleft() if self._script else self._default(request.url.path)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(reply.delay)
        finally:
            with self._lock:
                self.in_flight -= 1
        return Response(
            json.dumps(reply.body), status_code=reply.status, headers=reply.headers, media_type="application/json"
        )

    @staticmethod
    def _default(path: str) -> Scripted:
        return Scripted(openai_reply() if path == OPENAI_PATH else anthropic_reply())
