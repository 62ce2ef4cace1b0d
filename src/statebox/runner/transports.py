"""How the agent reaches an attempt's tools: in-process MCP (default), MCP over HTTP, or direct calls.

Whatever the transport, effects are read from the attempt's own session, so verdicts cannot differ.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from statebox.mcp import McpToolSurface, connect_in_memory, running_proxy
from statebox.mcp.errors import ToolServerError
from statebox.mcp.inmemory import tool_spec
from statebox.runner.backend import ToolTransport, direct_transport
from statebox.tasks import Task
from statebox.tools import BoundTools, ToolSpec, ToolSurface
from statebox.tools.arguments import ArgumentValidators

HANDOFF_SUITE = "__statebox_runner__"


class _LoopAttempt:
    """An attempt driven by statebox's own loop: tools only; the loop itself plays the customer."""

    def __init__(self, tools: BoundTools, task: Task, policy: str) -> None:
        self.id = secrets.token_urlsafe(16)
        self.tools = tools
        self.surface: ToolSurface = tools
        self.policy = policy
        self.opening_message = task.opening_message

    def status(self) -> dict[str, Any]:
        return {"id": self.id, "tool_calls": len(self.tools.log)}

    def result(self) -> dict[str, Any]:
        return {"effects": self.tools.session.effects().to_json()}

    async def close(self) -> None:
        """The runner owns the session and closes it."""


class MemoryTransport:
    """The official SDK's in-process client/server pairing.

    A domain's tool list is the same for every attempt, so it is listed over MCP once per domain
    and per campaign; every tool call still goes through the attempt's own MCP session. When no
    tool declares an output schema, there is nothing for the client to validate results against,
    and calls skip the client's per-session re-listing of the tools (see `McpToolSurface`).
    """

    def __init__(self) -> None:
        self._listings: dict[str, tuple[list[ToolSpec], bool]] = {}  # per domain: specs, any output schema
        self._validators = ArgumentValidators()

    @asynccontextmanager
    async def __call__(self, tools: BoundTools, task: Task, policy: str) -> AsyncIterator[ToolSurface]:
        async with connect_in_memory(_LoopAttempt(tools, task, policy), self._validators) as session:
            listing = self._listings.get(task.domain)
            if listing is None:
                listed = (await session.list_tools()).tools
                schemas = any(tool.output_schema is not None for tool in listed)
                listing = self._listings[task.domain] = ([tool_spec(tool) for tool in listed], schemas)
            specs, schemas = listing
            yield McpToolSurface(session, specs, validate_results=schemas)


class _Handoff:
    """A proxy attempt factory that hands over attempts the runner already made, by one-time ticket."""

    def __init__(self) -> None:
        self.pending: dict[str, _LoopAttempt] = {}

    async def __call__(self, suite: str, ticket: str, user: str | None) -> _LoopAttempt:
        if suite != HANDOFF_SUITE or ticket not in self.pending:
            raise LookupError("this proxy only serves the attempts of the campaign that started it")
        return self.pending.pop(ticket)


@asynccontextmanager
async def _http_transport_factory() -> AsyncIterator[ToolTransport]:
    handoff = _Handoff()
    token = secrets.token_urlsafe(16)
    async with running_proxy(handoff, token=token) as base_url, httpx.AsyncClient() as http:

        @asynccontextmanager
        async def transport(tools: BoundTools, task: Task, policy: str) -> AsyncIterator[ToolSurface]:
            ticket = secrets.token_urlsafe(16)
            handoff.pending[ticket] = _LoopAttempt(tools, task, policy)
            headers = {"Authorization": f"Bearer {token}"}
            body = {"suite": HANDOFF_SUITE, "task": ticket}
            resp = await http.post(f"{base_url}/attempts", json=body, headers=headers)
            if resp.status_code != 201:
                raise ToolServerError(f"loopback proxy refused the attempt: {resp.status_code} {resp.text}")
            created = resp.json()
            try:
                async with streamable_http_client(created["mcp_url"]) as streams, ClientSession(*streams) as session:
                    await session.initialize()
                    yield await McpToolSurface.connect(session)
            finally:
                await http.delete(f"{base_url}/attempts/{created['id']}", headers=headers)

        yield transport


@asynccontextmanager
async def transport_for(kind: str) -> AsyncIterator[ToolTransport]:
    """The transport for a campaign; HTTP starts a loopback proxy for the campaign's lifetime."""
    if kind == "direct":
        yield direct_transport
    elif kind == "memory":
        yield MemoryTransport()
    elif kind == "http":
        async with _http_transport_factory() as transport:
            yield transport
    else:
        raise ValueError(f"unknown tools transport {kind!r}; choose memory, http or direct")
