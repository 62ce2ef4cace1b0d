"""The MCP client session of one attempt's server, told the server's tool list up front.

The official `ClientSession.call_tool` revalidates every successful result against the tool's
declared output schema, and a fresh session knows no schema yet: its first call lists every
tool of the server (a whole `tools/list` round trip, its result validated, and the server's work
of listing) only to learn, for the benchmark servers, that no tool declares one. A campaign lists
a server's tools once; `know_tools` hands that list to each later session of the same server
(every process of it runs the same code), so a tool known to declare no output schema is not
validated and nothing is listed. A tool that declares a schema, or one the list does not name,
is validated exactly as the SDK does (listing first, as it would).
"""

from __future__ import annotations

from collections.abc import Iterable

import mcp_types as types
from mcp import ClientSession

from statebox.mcp.launch.bridge import MessageStreams


class ListedSession(ClientSession):
    """A `ClientSession` that skips the output-schema check of tools known to declare none."""

    def __init__(self, streams: MessageStreams) -> None:
        super().__init__(*streams)
        self._without_schema: frozenset[str] = frozenset()

    def know_tools(self, tools: Iterable[types.Tool]) -> None:
        """The server's tool list as listed by an earlier session of the same server."""
        self._without_schema = frozenset(tool.name for tool in tools if tool.output_schema is None)

    async def validate_tool_result(self, name: str, result: types.CallToolResult) -> None:
        if name in self._without_schema:
            return  # what the SDK concludes too, once it has listed the tools: nothing to validate
        await super().validate_tool_result(name, result)
