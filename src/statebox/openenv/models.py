"""The OpenEnv wire types: one action (a tool call, a message, or the end), one observation, the state.

The action also takes OpenEnv's own MCP actions (`{"type": "list_tools"}`, `{"type": "call_tool",
"tool_name", "arguments"}`, what `MCPToolClient` sends), which `mcp_view` answers in OpenEnv's MCP
observation types. Every observation carries its `metadata` over the wire (OpenEnv's serializer
leaves it out; OpenEnv's MCP client reads it): the task at the start, the verdict at the end.
"""

from __future__ import annotations

from typing import Any, Literal

from openenv.core import Action, Observation, State
from pydantic import Field, SerializationInfo, SerializerFunctionWrapHandler, model_serializer, model_validator

ObservationKind = Literal["start", "tool_result", "customer", "end"]
RewardKind = Literal["binary", "shaped"]
McpActionType = Literal["list_tools", "call_tool"]


class StateboxAction(Action):
    """A tool call (`tool`, `arguments`), a message to the customer (`message`), or the end (`end`).

    `end` with a `message` says it to the customer and ends the episode without waiting for an answer.
    `type` is set for OpenEnv's MCP actions: `list_tools`, or `call_tool` (its `tool_name` is `tool`).
    """

    type: McpActionType | None = Field(default=None, description="OpenEnv's MCP action: list_tools or call_tool")
    tool: str | None = Field(default=None, description="the tool to call")
    arguments: dict[str, Any] = Field(default_factory=dict, description="the tool call's arguments")
    message: str | None = Field(default=None, description="a message to the customer")
    end: bool = Field(default=False, description="the agent ends the episode")

    @model_validator(mode="before")
    @classmethod
    def _mcp_names(cls, data: Any) -> Any:
        """OpenEnv's `CallToolAction` names the tool `tool_name`."""
        if isinstance(data, dict) and data.get("type") == "call_tool" and "tool_name" in data:
            return {("tool" if k == "tool_name" else k): v for k, v in data.items()}
        return data

    @model_validator(mode="after")
    def _one_thing(self) -> StateboxAction:
        if self.type == "list_tools":
            if self.tool is not None or self.message is not None or self.end or self.arguments:
                raise ValueError("list_tools takes nothing else")
            return self
        if self.type == "call_tool" and self.tool is None:
            raise ValueError("call_tool needs a tool_name")
        if self.tool is not None and (self.message is not None or self.end):
            raise ValueError("an action is a tool call, a message or the end, not several")
        if self.tool is None and self.message is None and not self.end:
            raise ValueError("an action needs a tool, a message or end: true")
        return self


def with_metadata(
    observation: Observation, handler: SerializerFunctionWrapHandler, info: SerializationInfo
) -> dict[str, Any]:
    """The observation's fields as asked, with its `metadata` even when excluded (OpenEnv's serializer)."""
    data: dict[str, Any] = handler(observation)
    if "metadata" not in data and observation.metadata:
        data["metadata"] = observation.metadata
    return data


class WireObservation(Observation):
    """An observation that sends its `metadata` (for the observations of OpenEnv's MCP actions too)."""

    @model_serializer(mode="wrap")
    def _with_metadata(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        return with_metadata(self, handler, info)


class StateboxObservation(WireObservation):
    """What the agent sees after a reset or a step.

    On the final observation `reward` is 1.0 (passed) or 0.0 (failed), as `statebox run` judges;
    `info` carries the verdict, typed discrepancies and the failure signature, and so does `metadata`
    (on the start observation, `metadata` holds the task: its id, domain, opening message and policy).
    `tools` are the tools' JSON Schemas (MCP form); `openai_tools` the same tools in OpenAI's function format.
    """

    kind: ObservationKind
    text: str = Field(default="", description="the customer's message, or the tool's result")
    is_error: bool = False
    error_kind: str | None = None
    task_id: str = ""
    domain: str = ""
    policy: str | None = Field(default=None, description="the domain's policy (on reset)")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="the tools' JSON Schemas (on reset)")
    openai_tools: list[dict[str, Any]] = Field(
        default_factory=list, description="the tools in OpenAI function format, strict where valid (on reset)"
    )
    reward_kind: RewardKind = "binary"
    info: dict[str, Any] = Field(default_factory=dict, description="on the final observation: the verdict")


class StateboxState(State):
    """The episode as the server sees it."""

    suite: str = ""
    task_id: str | None = None
    split: str | None = None
    done: bool = False
    finish_reason: str | None = None
    entries: int = 0
