"""The benchmark servers' reserved-tool protocol, spoken over an `mcp.ClientSession`.

Per attempt: `reserved_init(config)` -> the agent's tool calls -> `reserved_geteffects()` ->
`reserved_teardown()`. Reserved tools are never shown to agents: `visible_tools` keeps only
what the scenario lists.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import mcp_types as types
from mcp import ClientSession
from pydantic import ValidationError

from statebox.compat.thinkingbox.models import TbDiffItem, TbEffects, TbScenario
from statebox.mcp.errors import ToolServerError
from statebox.tools.surface import ToolSpec

RESERVED_PREFIX = "__reserved__"
INIT_TOOL = RESERVED_PREFIX + "init"
EFFECTS_TOOL = RESERVED_PREFIX + "geteffects"
TEARDOWN_TOOL = RESERVED_PREFIX + "teardown"

DiscrepancyKind = Literal["wrong_value", "missing_effect", "extra_effect"]


def is_reserved(name: str) -> bool:
    return name.startswith(RESERVED_PREFIX)


def result_text(result: types.CallToolResult) -> str:
    """The text a tool call returned (its text parts, joined)."""
    return "".join(part.text for part in result.content if isinstance(part, types.TextContent))


async def reserved_init(session: ClientSession, server: str, config: dict[str, Any]) -> None:
    """Send the merged world state; anything but `{}` or `{"status": "ok"}` is a failed start."""
    text = result_text(await session.call_tool(INIT_TOOL, {"config": config}))
    answer = json_object(text)
    if answer is None or (answer and answer.get("status") != "ok"):
        raise ToolServerError(f"tool server {server!r} failed to initialise: {text[:2000]}")


async def reserved_geteffects(session: ClientSession, server: str) -> TbEffects:
    """The server's effects: result and golden states, their hashes, the diff and rubrics."""
    text = result_text(await session.call_tool(EFFECTS_TOOL, {}))
    answer = json_object(text)
    if answer is None or answer.get("status") == "error":
        raise ToolServerError(f"tool server {server!r} could not report effects: {text[:2000]}")
    try:
        return TbEffects.model_validate(answer)
    except ValidationError as exc:
        raise ToolServerError(f"tool server {server!r} reported malformed effects: {exc}") from exc


async def reserved_teardown(session: ClientSession) -> str:
    """Ask the server to clean up; its answer is only informative (it errors without Typesense)."""
    return result_text(await session.call_tool(TEARDOWN_TOOL, {}))


def visible_tools(tools: list[types.Tool], scenario: TbScenario) -> list[ToolSpec]:
    """The server tools the agent may see: listed by the scenario, never reserved, descriptions
    overridden where the scenario says so. `search_policy` is kept: statebox answers it."""
    specs = []
    for tool in tools:
        ref = scenario.tool(tool.name)
        if ref is None or is_reserved(tool.name):
            continue
        description = ref.override_description or tool.description or ""
        specs.append(ToolSpec(name=tool.name, description=description, input_schema=dict(tool.input_schema)))
    return specs


def discrepancy_kind(item: TbDiffItem) -> DiscrepancyKind:
    """How a server diff item reads in statebox's terms (missing / extra / wrong value)."""
    if item.type in ("missing in result (present in golden)", "result is None, golden is not"):
        return "missing_effect"
    if item.type in ("present in result (missing in golden)", "result is not None, golden is None"):
        return "extra_effect"
    if item.type == "length mismatch" and isinstance(item.result, list) and isinstance(item.golden, list):
        return "missing_effect" if len(item.result) < len(item.golden) else "extra_effect"
    return "wrong_value"


def json_object(text: str) -> dict[str, Any] | None:
    """`text` parsed as JSON when it is a JSON object, else None."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
