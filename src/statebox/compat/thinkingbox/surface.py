"""The tools an agent sees in a ThinkingBox-Bench attempt, routed to the attempt's servers.

Only the scenario's tools are offered (reserved ones never are, and calling them, or anything
unlisted, is an unknown-tool error), plus the agent spec's built-in tools. `search_policy` is
answered from the policy documents when statebox does the search. Results are the server's
text, unchanged; a `{"error": ...}` text counts as a failed call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

import mcp_types as types

from statebox.compat.thinkingbox.models import TbBuiltinTool, TbPolicySource, TbScenario
from statebox.compat.thinkingbox.protocol import result_text, visible_tools
from statebox.compat.thinkingbox.search import PolicySearch
from statebox.compat.thinkingbox.task import exposed_name
from statebox.mcp.launch import ToolServer
from statebox.tools import ToolOutcome, ToolSpec

SEARCH_TOOL = "search_policy"


@dataclass(frozen=True)
class _Route:
    kind: Literal["server", "search", "builtin"]
    tool: str
    server: ToolServer | None = None
    ends_episode: bool = False
    writes: bool = False


@dataclass
class TbToolSurface:
    """The `ToolSurface` of one attempt: routes each visible name to its server, the search, or a built-in."""

    specs: list[ToolSpec] = field(default_factory=list)
    _routes: dict[str, _Route] = field(default_factory=dict)
    _sources: dict[str, list[TbPolicySource]] = field(default_factory=dict)
    _searches: dict[str, PolicySearch] = field(default_factory=dict)  # built on first use

    def add_server(
        self,
        link: ToolServer,
        tools: list[types.Tool],
        scenario: TbScenario,
        servers: list[str],
        sources: list[TbPolicySource] | None,
        visible: list[ToolSpec] | None = None,
    ) -> None:
        """Offer the server's scenario-listed tools (`visible`: `visible_tools(tools, scenario)` as made
        once per campaign, so that every attempt offers the same specs); `sources` given: statebox
        answers search_policy."""
        read_only = {tool.name for tool in tools if tool.annotations and tool.annotations.read_only_hint}
        for spec in visible if visible is not None else visible_tools(tools, scenario):
            ref = scenario.tool(spec.name)
            ends = bool(ref and ref.is_end_turn)
            name = exposed_name(link.name, spec.name, servers)
            if spec.name == SEARCH_TOOL and sources is not None:
                self._sources[link.name] = sources
                route = _Route("search", spec.name, link, ends)
            else:
                route = _Route("server", spec.name, link, ends, writes=spec.name not in read_only)
            self._routes[name] = route
            self.specs.append(spec.model_copy(update={"name": name, "writes": route.writes}))

    def add_builtins(self, tools: list[TbBuiltinTool], specs: list[ToolSpec] | None = None) -> None:
        """The agent spec's own tools: answered here, never sent to a server (`specs`: `builtin_specs(tools)`
        as made once per campaign)."""
        for tool in tools:
            self._routes[tool.name] = _Route("builtin", tool.name, ends_episode=tool.is_end_turn)
        self.specs += specs if specs is not None else builtin_specs(tools)

    def list_tools(self) -> list[ToolSpec]:
        return list(self.specs)

    def writes(self, name: str) -> bool:
        route = self._routes.get(name)
        return route is None or route.writes

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        route = self._routes.get(name)
        if route is None:  # reserved, unlisted or made up: the agent cannot reach it
            text = json.dumps({"error": f"Unknown tool: {name}"})
            return ToolOutcome(text=text, is_error=True, error_kind="unknown_tool")
        if route.kind == "builtin":
            return ToolOutcome(text=json.dumps({"status": "ok"}), ends_episode=route.ends_episode)
        assert route.server is not None
        if route.kind == "search":
            answer = self._search(route.server.name).tool_result(arguments)
            return _outcome(json.dumps(answer), False, None, route.ends_episode)
        result = await route.server.call_tool(route.tool, arguments)
        return _outcome(result_text(result), result.is_error, result.structured_content, route.ends_episode)

    def close(self) -> None:
        for search in self._searches.values():
            search.close()
        self._searches.clear()

    def _search(self, server: str) -> PolicySearch:
        if server not in self._searches:
            self._searches[server] = PolicySearch(self._sources[server])
        return self._searches[server]


def builtin_specs(tools: list[TbBuiltinTool]) -> list[ToolSpec]:
    """The agent spec's own tools as the agent sees them."""
    return [ToolSpec(name=tool.name, description=tool.description, input_schema=tool.input_schema) for tool in tools]


def _outcome(text: str, is_error: bool, data: Any, ends_episode: bool) -> ToolOutcome:
    parsed = _json(text)
    failed = is_error or (isinstance(parsed, dict) and "error" in parsed)
    return ToolOutcome(
        text=text,
        is_error=failed,
        error_kind="tool_error" if failed else None,
        data=None if failed else (data if data is not None else parsed),
        ends_episode=ends_episode,
    )


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
