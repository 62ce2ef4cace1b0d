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
from typing import Any, Protocol

from openenv.core.env_server.mcp_types import CallToolObservation, ListToolsObservation, Tool
from pydantic import Field

from statebox.openenv.models import ObservationKind, RewardKind, StateboxAction, WireObservation
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


class Stepping(Protocol):
    """What the bridge needs of the environment (`StateboxEnvironment`)."""

    async def step_async(self, action: StateboxAction, timeout_s: float | None = None, **kwargs: Any) -> Any: ...


class McpBridge:
    """The environment's `mcp_client`: what OpenEnv's JSON-RPC routes call (`POST /mcp`, and `mcp`
    messages on `/ws`), answered by the same steps as `MCPToolClient`'s. A call's result is the MCP
    result with `done` and `reward`, and the verdict once the episode is over."""

    def __init__(self, env: Stepping) -> None:
        self._env = env

    def is_connected(self) -> bool:
        return True  # nothing to connect: the tools are the episode's, in this process

    async def list_tools(self) -> list[Tool]:
        listed: StateboxToolList = await self._env.step_async(StateboxAction(type="list_tools"))
        return listed.tools

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        obs: StateboxToolResult = await self._env.step_async(
            StateboxAction(type="call_tool", tool=name, arguments=arguments or {}))
        result: dict[str, Any] = {**obs.result, "done": obs.done, "reward": obs.reward}
        return {**result, "verdict": obs.metadata} if obs.done else result

