"""The MCP server of one attempt, reached in process with the official client."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.memory import create_client_server_memory_streams
from mcp_fakes import FakeAttempt

from statebox.mcp import McpToolSurface, build_server, connect_in_memory
from statebox.mcp.errors import ToolServerError
from statebox.mcp.server import OPENING_MESSAGE_URI, POLICY_URI
from statebox.tools.arguments import ArgumentValidators
from statebox.tools.surface import ToolOutcome, ToolSpec

pytestmark = pytest.mark.anyio


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))


async def test_lists_the_surface_tools_with_their_schemas(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert sorted(tools) == ["get", "put"]
    assert tools["put"].input_schema == attempt.surface.list_tools()[0].input_schema
    assert tools["put"].annotations and tools["put"].annotations.read_only_hint is False
    assert tools["get"].annotations and tools["get"].annotations.read_only_hint is True


async def test_call_reaches_the_surface_and_returns_its_text(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        result = await session.call_tool("put", {"key": "color", "value": "blue"})
    assert (result.is_error, text_of(result)) == (False, "stored color")
    assert attempt.surface.store == {"color": "blue"}


async def test_a_tool_error_is_an_is_error_result(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        result = await session.call_tool("get", {"key": "absent"})
    assert result.is_error
    assert text_of(result) == "no value under 'absent'"


async def test_missing_required_argument_names_it_and_the_signature(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        result = await session.call_tool("put", {"key": "color"})
    assert result.is_error
    assert "missing required argument 'value'" in text_of(result)
    assert "key (string, required), value (string, required)" in text_of(result)
    assert attempt.surface.store == {}, "invalid arguments must never reach the surface"


async def test_wrong_type_names_the_argument_and_the_expected_type(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        result = await session.call_tool("put", {"key": "n", "value": "v", "ttl": "soon"})
    assert result.is_error
    assert "argument 'ttl' must be integer, got string \"soon\"" in text_of(result)


async def test_unknown_argument_is_named_with_the_allowed_ones(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        result = await session.call_tool("put", {"key": "k", "value": "v", "colour": 1})
    assert "unknown argument 'colour' (allowed: key, value, ttl)" in text_of(result)


async def test_unknown_tool_lists_the_available_tools(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        result = await session.call_tool("delete_everything", {})
    assert result.is_error
    assert text_of(result) == "Error (unknown_tool): Unknown tool 'delete_everything'. Available tools: get, put."


async def test_policy_and_opening_message_are_resources(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        listed = {r.uri: r.mime_type for r in (await session.list_resources()).resources}
        policy = (await session.read_resource(POLICY_URI)).contents[0]
        opening = (await session.read_resource(OPENING_MESSAGE_URI)).contents[0]
    assert listed == {POLICY_URI: "text/markdown", OPENING_MESSAGE_URI: "text/plain"}
    assert isinstance(policy, types.TextResourceContents) and policy.text == attempt.policy
    assert isinstance(opening, types.TextResourceContents)
    assert opening.text == attempt.opening_message


async def test_an_unknown_resource_is_a_protocol_error(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        with pytest.raises(MCPError, match="Unknown resource 'statebox://grading'"):
            await session.read_resource("statebox://grading")


async def test_tool_surface_adapter_round_trips_outcomes(attempt: FakeAttempt) -> None:
    async with connect_in_memory(attempt) as session:
        surface = await McpToolSurface.connect(session)
        stored = await surface.call_tool("put", {"key": "k", "value": "v"})
        read = await surface.call_tool("get", {"key": "k"})
        missing = await surface.call_tool("get", {"key": "nope"})
    assert [s.name for s in surface.list_tools()] == ["put", "get"]
    assert [s.writes for s in surface.list_tools()] == [True, False]
    assert stored == ToolOutcome(text="stored k", data={"key": "k"})
    assert read == ToolOutcome(text="v", data={"key": "k", "value": "v"})
    assert missing == ToolOutcome(text="no value under 'nope'", is_error=True, error_kind="not_found")


class _BrokenSurface:
    def list_tools(self) -> list[ToolSpec]:
        return [ToolSpec(name="ping", description="Ping.")]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        raise ToolServerError("tool server 'x' exited during 'ping'")


async def test_a_failed_tool_server_is_a_protocol_error_not_an_agent_error() -> None:
    attempt = FakeAttempt(surface=_BrokenSurface())  # type: ignore[arg-type]
    async with connect_in_memory(attempt) as session:
        with pytest.raises(MCPError, match="tool server failed"):
            await session.call_tool("ping", {})
        surface = await McpToolSurface.connect(session)
        with pytest.raises(ToolServerError, match="exited during 'ping'"):
            await surface.call_tool("ping", {})


async def test_the_legacy_handshake_over_memory_streams_works_too(attempt: FakeAttempt) -> None:
    server = build_server(attempt)
    async with create_client_server_memory_streams() as (client, server_side), anyio.create_task_group() as tg:
        tg.start_soon(server.run, *server_side, server.create_initialization_options())
        async with ClientSession(*client) as session:
            await session.initialize()
            result = await session.call_tool("put", {"key": "a", "value": "b"})
        tg.cancel_scope.cancel()
    assert not result.is_error and attempt.surface.store == {"a": "b"}


def test_same_named_tools_are_each_checked_against_their_own_schema() -> None:
    validators = ArgumentValidators()
    strict = ToolSpec(
        name="put",
        description="",
        input_schema={"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]},
    )
    integer_n = {"type": "object", "properties": {"n": {"type": "integer"}}}
    loose = ToolSpec(name="put", description="", input_schema=integer_n)
    assert validators.check(strict, {"key": "k"}) is None
    assert validators.check(loose, {"key": "k"}) is None, "checked against the other tool's schema"
    assert validators.check(loose, {"n": "x"}) is not None
    assert validators.check(strict, {"n": 1}) is not None


RICH = ToolSpec(
    name="order",
    description="Place an order.",
    input_schema={
        "type": "object",
        "properties": {
            "status": {"anyOf": [{"enum": ["open", "solved"], "type": "string"}, {"type": "null"}]},
            "items": {
                "type": "array",
                "items": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
            },
        },
    },
)


def test_a_union_mismatch_describes_every_alternative() -> None:
    message = ArgumentValidators().check(RICH, {"status": "closed"})
    assert message is not None
    assert 'argument \'status\' must be one of "open", "solved" or null, got "closed"' in message


def test_a_nested_mismatch_names_the_full_path() -> None:
    message = ArgumentValidators().check(RICH, {"items": [{"sku": "A"}, {"sku": 7}, {}]})
    assert message is not None
    assert "argument 'items[1].sku' must be string, got integer 7" in message
    assert "missing required argument 'items[2].sku'" in message
    assert 'Expected arguments: status (one of "open", "solved" or null, optional)' in message
