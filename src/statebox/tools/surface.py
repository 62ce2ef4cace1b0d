"""The tool surface of one attempt: what any transport (in-process, MCP, HTTP) exposes to an agent."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field


class ToolSpec(BaseModel):
    """A tool as an agent sees it: name, description and JSON Schema of its arguments."""

    name: str
    description: str
    input_schema: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    writes: bool = False


class ToolOutcome(BaseModel):
    """What one tool call returned: the text the agent sees, and whether it is an error."""

    text: str
    is_error: bool = False
    error_kind: str | None = None  # invalid_arguments | not_found | precondition | unknown_tool | ...
    data: Any = None  # the structured result when the call succeeded
    ends_episode: bool = False  # an end-turn tool: the attempt ends once the call is made


class ToolSurface(Protocol):
    """The tools of one attempt. Implemented by the world-backed attempt and by external servers."""

    def list_tools(self) -> list[ToolSpec]: ...

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome: ...


class CustomerActions(Protocol):
    """What the customer can do on an attempt's own state: the domain's customer tools."""

    def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome: ...
