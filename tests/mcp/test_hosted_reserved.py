"""No surface lists or reaches a `__reserved__*` tool, even one its tools offer: the unknown-tool answer instead."""

from __future__ import annotations

from typing import Any

import pytest

from statebox.mcp.inmemory import McpToolSurface, connect_in_memory
from statebox.runner.hosted import AttemptSurface
from statebox.tools import ToolOutcome, ToolSpec


class _ListsReserved:
    """A tool surface that (wrongly) offers a reserved tool beside a real one."""

    def __init__(self) -> None:
        self.called: list[str] = []

    def list_tools(self) -> list[ToolSpec]:
        return [ToolSpec(name="lookup", description="d"), ToolSpec(name="__reserved__server_tool", description="d")]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.called.append(name)
        return ToolOutcome(text="reached")


@pytest.mark.anyio
async def test_a_surface_offering_a_reserved_tool_still_never_lists_or_reaches_it() -> None:
    tools = _ListsReserved()
    surface = AttemptSurface(tools, None, "hello")
    assert [s.name for s in surface.list_tools()] == ["lookup"]
    refused = await surface.call_tool("__reserved__server_tool", {})
    assert (refused.is_error, refused.error_kind) == (True, "unknown_tool")
    assert refused.text == "Error (unknown_tool): Unknown tool '__reserved__server_tool'. Available tools: lookup."
    assert tools.called == []


class _OffersReserved:
    """A hosted attempt whose surface itself lists a reserved tool (no AttemptSurface in between)."""

    id = "a"
    policy = "p"
    opening_message = "hello"

    def __init__(self) -> None:
        self.surface = _ListsReserved()

    def status(self) -> dict[str, Any]:
        return {}

    def result(self) -> dict[str, Any]:
        return {}

    async def close(self) -> None:
        pass


@pytest.mark.anyio
async def test_the_mcp_server_never_lists_or_reaches_a_reserved_tool_its_surface_offers() -> None:
    attempt = _OffersReserved()
    async with connect_in_memory(attempt) as session:
        listed = [t.name for t in (await session.list_tools()).tools]
        refused = await (await McpToolSurface.connect(session)).call_tool("__reserved__init", {"config": {}})
    assert listed == ["lookup"]
    assert (refused.is_error, refused.error_kind) == (True, "unknown_tool")
    assert refused.text == "Error (unknown_tool): Unknown tool '__reserved__init'. Available tools: lookup."
    assert attempt.surface.called == []
