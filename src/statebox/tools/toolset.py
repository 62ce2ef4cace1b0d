"""A domain's tools, and the same tools bound to one attempt's session."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from statebox.tools.arguments import ArgumentValidators, unknown_tool_message
from statebox.tools.decorator import Tool
from statebox.tools.errors import InvalidArguments, ToolError, UnknownTool
from statebox.tools.quoting import without_long_values
from statebox.tools.surface import ToolOutcome, ToolSpec
from statebox.world import Session


class Toolset:
    """An immutable collection of tools with per-instance compiled argument validators."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools = {t.name: t for t in tools}
        self._validators = ArgumentValidators()

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self) -> list[ToolSpec]:
        return [t.spec for t in self._tools.values()]

    def validate(self, name: str, arguments: dict[str, Any]) -> Tool:
        """The tool, once the arguments fit its schema; otherwise a ToolError for the agent."""
        tool = self._tools.get(name)
        if tool is None:
            raise UnknownTool(unknown_tool_message(name, self._tools))
        problem = self._validators.check(tool.spec, arguments)
        if problem is not None:
            raise InvalidArguments(problem)
        return tool

    def call(self, session: Session, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Validate, run atomically, and render the result or the error as the agent sees it."""
        try:
            tool = self.validate(name, arguments)
            with session.transaction():
                data = tool.fn(session, **with_defaults(tool, arguments))
        except ToolError as e:
            # Whatever a tool quotes back, a huge argument is never echoed to the agent whole.
            text = without_long_values(e.agent_text(), [name, arguments])
            return ToolOutcome(text=text, is_error=True, error_kind=e.kind)
        return ToolOutcome(text=render(data), data=data)


def with_defaults(tool: Tool, arguments: dict[str, Any]) -> dict[str, Any]:
    """The tool's keyword arguments: an optional argument left out or null takes its default."""
    given = {k: v for k, v in arguments.items() if v is not None or k not in tool.defaults}
    return {**tool.defaults, **given}


def render(data: Any) -> str:
    """Tool results as compact, stable JSON text."""
    if isinstance(data, str):
        return data
    return json.dumps(data, ensure_ascii=False, default=str)


@dataclass
class CallRecord:
    """One call as the harness saw it, for failure signatures."""

    tool: str
    arguments: dict[str, Any]
    ok: bool
    writes: bool
    error_kind: str | None = None


@dataclass
class BoundTools:
    """A Toolset bound to one session: the ToolSurface of a world-backed attempt."""

    toolset: Toolset
    session: Session
    log: list[CallRecord] = field(default_factory=list)

    def list_tools(self) -> list[ToolSpec]:
        return self.toolset.specs()

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        return self.call(name, arguments)

    def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        outcome = self.toolset.call(self.session, name, arguments)
        writes = name in self.toolset and self.toolset[name].writes
        self.log.append(CallRecord(name, arguments, not outcome.is_error, writes, outcome.error_kind))
        return outcome
