"""OpenEnv's MCP tool interface on a statebox episode: what `list_tools` and `call_tool` steps answer.

OpenEnv's `MCPToolClient` sends its `ListToolsAction` and `CallToolAction` over `/ws` as steps;
`StateboxAction` takes both, and the environment answers in OpenEnv's own observation types
(subclassed with statebox's fields), which that client parses: `tools` for a listing, `tool_name`
and `result` for a call. A call's `result` has the shape of an MCP `CallToolResult` (`content`,
`structured_content`, `data`, `is_error`), so `MCPToolClient.call_tool` returns its `data`: the
tool's JSON result decoded, or its text. A tool's own error is a result (`is_error` true), as the
agent of `statebox run` sees it, never OpenEnv's `error` (kept for the transport's).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from openenv.core.env_server.mcp_types import CallToolObservation, ListToolsObservation, Tool
from pydantic import Field

from statebox.openenv.models import ObservationKind, RewardKind, WireObservation
from statebox.openenv.tool_forms import openai_tools
from statebox.tools import ToolOutcome, ToolSpec


class StateboxToolList(ListToolsObservation, WireObservation):
    """The episode's tools (task's and conversation's), as MCP lists them and in OpenAI's function format."""

    openai_tools: list[dict[str, Any]] = Field(
        default_factory=list, description="the same tools in OpenAI function format, strict where valid"
    )


class StateboxToolResult(CallToolObservation, WireObservation):
    """One tool call's result; on the episode's last call `done`, the reward and the verdict (in `metadata`)."""

    kind: ObservationKind = "tool_result"
    is_error: bool = False
    error_kind: str | None = None
    task_id: str = ""
    reward_kind: RewardKind = "binary"


def tool_list(specs: Sequence[ToolSpec]) -> StateboxToolList:
    tools = [Tool(name=s.name, description=s.description, input_schema=s.input_schema) for s in specs]
    return StateboxToolList(tools=tools, openai_tools=openai_tools(specs))


def call_result(outcome: ToolOutcome) -> dict[str, Any]:
    """`outcome` shaped as an MCP `CallToolResult`: the text, and `data` decoded from it when it is JSON."""
    try:
        data: Any = json.loads(outcome.text)
    except ValueError:
        data = outcome.text
    return {
        "content": [{"type": "text", "text": outcome.text}],
        "structured_content": data if isinstance(data, dict) else None,
        "data": data,
        "is_error": outcome.is_error,
    }
