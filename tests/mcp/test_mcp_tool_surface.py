"""`McpToolSurface` with and without the client's result validation: the agent sees the same outcomes."""

from __future__ import annotations

import pytest
from mcp_fakes import FakeAttempt

from statebox.mcp import McpToolSurface, connect_in_memory
from statebox.mcp.inmemory import list_tool_specs
from statebox.tools.surface import ToolOutcome

pytestmark = pytest.mark.anyio


async def outcomes(attempt: FakeAttempt, validate_results: bool) -> list[ToolOutcome]:
    async with connect_in_memory(attempt) as session:
        surface = McpToolSurface(session, await list_tool_specs(session), validate_results=validate_results)
        return [
            await surface.call_tool("put", {"key": "color", "value": "blue"}),
            await surface.call_tool("get", {"key": "color"}),
            await surface.call_tool("get", {"key": "size"}),
            await surface.call_tool("put", {"key": "color"}),
            await surface.call_tool("drop", {"key": "color"}),
        ]


async def test_plain_tools_call_requests_give_the_outcomes_a_validating_client_gives() -> None:
    validated = await outcomes(FakeAttempt(), validate_results=True)
    plain = await outcomes(FakeAttempt(), validate_results=False)
    assert plain == validated
    assert [(o.is_error, o.error_kind) for o in plain] == [
        (False, None),
        (False, None),
        (True, "not_found"),
        (True, "invalid_arguments"),
        (True, "unknown_tool"),
    ]
    assert plain[1].data == {"key": "color", "value": "blue"}
