"""How the agent reaches an attempt's tools: in-process MCP (default), MCP over HTTP, or direct calls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from statebox.runner.episode import ToolTransport, direct_transport


@asynccontextmanager
async def transport_for(kind: str) -> AsyncIterator[ToolTransport]:
    """The transport for a campaign; HTTP starts a loopback proxy for the campaign's lifetime."""
    if kind == "direct":
        yield direct_transport
    else:
        # TODO(mcp): replaced once the MCP room lands
        yield direct_transport
