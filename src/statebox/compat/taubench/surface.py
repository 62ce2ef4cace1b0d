"""The tools an agent sees in a τ-bench attempt: the domain's own, with their own schemas, on the attempt's server.

Results are τ-bench's text unchanged; a text starting `Error` (how its tools and its environment report a
failure) counts as a failed call. A reserved or unknown name never reaches the server. Which tools only
read is statebox's statement about τ-bench (it marks none): `statebox validate` checks it on every
reference call, and a tool not named here counts as writing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types

from statebox.compat.taubench.models import TERMINATE_TOOLS
from statebox.compat.taubench.protocol import is_reserved, result_text
from statebox.mcp.launch import ToolServer
from statebox.tools import ToolOutcome, ToolSpec
from statebox.tools.arguments import unknown_tool_message

READ_ONLY = frozenset({
    "calculate", "think", "transfer_to_human_agents", "list_all_airports", "search_direct_flight",
    "search_onestop_flight", "get_reservation_details", "get_user_details", "find_user_id_by_email",
    "find_user_id_by_name_zip", "get_order_details", "get_product_details", "list_all_product_types",
})  # fmt: skip


def tool_specs(tools: list[types.Tool]) -> list[ToolSpec]:
    """The server's tools as the agent sees them (never a reserved one)."""
    return [
        ToolSpec(name=t.name, description=t.description or "", input_schema=dict(t.input_schema),
                 writes=t.name not in READ_ONLY)
        for t in tools if not is_reserved(t.name)
    ]  # fmt: skip


@dataclass
class TauToolSurface:
    """The `ToolSurface` of one attempt: τ-bench's tools on its server process."""

    server: ToolServer
    specs: list[ToolSpec] = field(default_factory=list)

    def list_tools(self) -> list[ToolSpec]:
        return list(self.specs)

    def writes(self, name: str) -> bool:
        return self.writes_tool(name)

    @staticmethod
    def writes_tool(name: str) -> bool:
        return name not in READ_ONLY

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        known = {spec.name: spec for spec in self.specs}
        if name not in known:
            return ToolOutcome(text=unknown_tool_message(name, known), is_error=True, error_kind="unknown_tool")
        result = await self.server.call_tool(name, arguments)
        text = result_text(result)
        failed = result.is_error or text.startswith("Error")
        return ToolOutcome(
            text=text,
            is_error=failed,
            error_kind="tool_error" if failed else None,
            data=None if failed else _json(text),
            ends_episode=name in TERMINATE_TOOLS,
        )


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
