"""Every provider against one loopback recorder: where its requests go, a minimal valid reply, and
a client pointed at the recorder. The recorder keeps each request's path, headers and JSON body and
answers from a queue of scripted (status, body) replies, else with the provider's plain reply."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from statebox.llm import ModelClient, RetryPolicy, Sampling, make_client

from .loopback import REPLY, serve

RETRY = RetryPolicy(max_retries=2, base_delay=0.001, max_delay=0.01, timeout_s=10.0)


@dataclass(frozen=True)
class Provider:
    name: str
    spec: str
    prefix: str  # appended to http://127.0.0.1:PORT to make the base URL
    ok: dict[str, Any]  # the provider's reply saying "ok"

    def client(self, port: int, *, sampling: Sampling | None = None, retry: RetryPolicy = RETRY) -> ModelClient:
        base = f"http://127.0.0.1:{port}{self.prefix}"
        return make_client(self.spec, base_url=base, sampling=sampling, retry=retry, api_key="k")


PROVIDERS = [
    Provider("openai", "openai:gpt-4.1", "/v1", REPLY),
    Provider("azure", "azure:my-gpt-4o", "", REPLY),
    Provider(
        "openai-responses",
        "openai-responses:o4-mini",
        "/v1",
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "status": "completed",
            "model": "o4-mini",
            "output": [
                {
                    "type": "message",
                    "id": "msg_1",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "ok", "annotations": []}],
                }
            ],
            "parallel_tool_calls": False,
            "tool_choice": "auto",
            "tools": [],
        },
    ),
    Provider(
        "anthropic",
        "anthropic:claude-sonnet-4-5",
        "",
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": "ok"}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 1},
        },
    ),
    Provider(
        "google",
        "google:gemini-2.5-flash",
        "/v1beta",
        {
            "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 1, "totalTokenCount": 4},
        },
    ),
    Provider(
        "bedrock",
        "bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0",
        "",
        {
            "output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}},
            "stopReason": "end_turn",
            "usage": {"inputTokens": 3, "outputTokens": 1, "totalTokens": 4},
            "metrics": {"latencyMs": 1},
        },
    ),
]
BY_NAME = {p.name: p for p in PROVIDERS}


@dataclass
class Recorder:
    """What the loopback server saw, and what it is to answer next."""

    provider: Provider
    requests: list[tuple[str, dict[str, str], dict[str, Any]]] = field(default_factory=list)
    script: deque[tuple[int, Any, dict[str, str]]] = field(default_factory=deque)
    arrivals: list[float] = field(default_factory=list)  # time.monotonic() of each request
    raw_bodies: list[bytes] = field(default_factory=list)

    def reply(self, *replies: tuple[int, Any] | tuple[int, Any, dict[str, str]] | dict[str, Any]) -> None:
        """Queue replies: a body (200), (status, body) or (status, body, headers)."""
        for reply in replies:
            if not isinstance(reply, tuple):
                reply = (200, reply)
            self.script.append((reply[0], reply[1], reply[2] if len(reply) > 2 else {}))  # type: ignore[misc]

    def bodies(self) -> list[dict[str, Any]]:
        return [body for _, _, body in self.requests]

    async def handle(self, request: web.Request) -> web.Response:
        self.arrivals.append(time.monotonic())
        self.raw_bodies.append(await request.read())
        body = await request.json()
        self.requests.append((request.path_qs, dict(request.headers), body))
        status, answer, headers = self.script.popleft() if self.script else (200, self.provider.ok, {})
        return web.json_response(answer, status=status, headers=headers)


@asynccontextmanager
async def recording(provider: Provider) -> AsyncIterator[tuple[Recorder, int]]:
    recorder = Recorder(provider)
    async with serve(recorder.handle) as port:
        yield recorder, port
