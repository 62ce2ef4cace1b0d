"""A started tool server's tools as a `ToolSurface`, for agents that call an external server directly."""

from __future__ import annotations

from typing import Any

from mcp.shared.exceptions import MCPError

from statebox.mcp.inmemory import outcome_from_result, tool_spec
from statebox.mcp.launch.server import ToolServer
from statebox.tools.surface import ToolOutcome, ToolSpec


class ToolServerSurface:
    """The server's tools, listed once; an error the server reports is the agent's, a dead or hung
    server raises `ToolServerError` (from `ToolServer.guard`)."""

    def __init__(self, server: ToolServer, specs: list[ToolSpec]) -> None:
        self.server = server
        self._specs = specs

    @classmethod
    async def connect(cls, server: ToolServer) -> ToolServerSurface:
        """List the server's tools (all pages) and wrap it."""
        return cls(server, [tool_spec(tool) for tool in await server.list_tools()])

    def list_tools(self) -> list[ToolSpec]:
        return list(self._specs)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        try:
            result = await self.server.call_tool(name, arguments)
        except MCPError as exc:  # the live server refused the call (unknown tool, bad arguments)
            return ToolOutcome(text=f"Error: {exc.message}", is_error=True, error_kind="tool_error")
        return outcome_from_result(result)
