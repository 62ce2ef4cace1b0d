"""Talking MCP in process: a client session on an attempt's server, and tools seen through it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, ClientSession
from mcp.shared.exceptions import MCPError

from statebox.mcp.errors import ToolServerError
from statebox.mcp.hosted import HostedAttempt
from statebox.mcp.server import ERROR_KIND_META_KEY, build_server
from statebox.tools.arguments import ArgumentValidators
from statebox.tools.surface import ToolOutcome, ToolSpec


@asynccontextmanager
async def connect_in_memory(
    attempt: HostedAttempt, validators: ArgumentValidators | None = None
) -> AsyncIterator[ClientSession]:
    """An official `ClientSession` wired in process to `build_server(attempt)`.

    Uses the SDK's in-process pairing: requests go straight to the server's handlers with
    no JSON-RPC framing or transport, so a tool call costs little more than the call itself.
    """
    async with Client(build_server(attempt, validators), cache=None) as client:
        yield client.session


class McpToolSurface:
    """A `ToolSurface` backed by an MCP session, so the agent loop speaks MCP on any transport.

    Create it with `await McpToolSurface.connect(session)`, which lists the tools once.
    A protocol-level failure (not an `isError` result) is the harness's problem and raises
    `ToolServerError`.
    """

    def __init__(self, session: ClientSession, specs: list[ToolSpec], *, validate_results: bool = True) -> None:
        """`validate_results=False` when the caller listed the tools and none declares an output
        schema: calls then go out as plain `tools/call` requests, so the client does not list
        the tools again (once per session) only to find there is nothing to validate."""
        self._session = session
        self._specs = specs
        self._validate_results = validate_results

    @classmethod
    async def connect(cls, session: ClientSession) -> McpToolSurface:
        """List the session's tools (all pages) and wrap the session."""
        return cls(session, await list_tool_specs(session))

    def list_tools(self) -> list[ToolSpec]:
        return list(self._specs)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        try:
            if self._validate_results:
                result = await self._session.call_tool(name, arguments)
            else:
                request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
                result = await self._session.send_request(request, types.CallToolResult)
        except MCPError as exc:
            raise ToolServerError(f"tools/call {name!r} failed: {exc.message}") from exc
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
            raise ToolServerError(f"tools/call {name!r} failed: the connection is closed") from exc
        return outcome_from_result(result)


async def list_tool_specs(session: ClientSession) -> list[ToolSpec]:
    """Every tool the session's server offers, as statebox `ToolSpec`s."""
    specs: list[ToolSpec] = []
    cursor: str | None = None
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        specs += [tool_spec(tool) for tool in page.tools]
        cursor = page.next_cursor
        if not cursor:
            return specs


def tool_spec(tool: types.Tool) -> ToolSpec:
    """An MCP tool as a `ToolSpec`; `writes` is unknown (False) unless the server hints it."""
    read_only = tool.annotations.read_only_hint if tool.annotations else None
    return ToolSpec(
        name=tool.name,
        description=tool.description or "",
        input_schema=tool.input_schema,
        writes=read_only is False,
    )


def outcome_from_result(result: types.CallToolResult) -> ToolOutcome:
    """The agent-visible text (text blocks joined) plus error flag, kind and structured data."""
    text = "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))
    kind = (result.meta or {}).get(ERROR_KIND_META_KEY)
    return ToolOutcome(
        text=text,
        is_error=result.is_error,
        error_kind=kind if isinstance(kind, str) else None,
        data=result.structured_content,
    )
