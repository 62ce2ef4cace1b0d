"""The MCP server of one attempt: its tools, its policy and the customer's opening message.

Built on the SDK's low-level `Server` (2.x handler style: `on_*` callables taking
`(ctx, params)`). Only the attempt's tool surface is exposed; setup and grading are not: a
`__reserved__*` tool is never listed, and calling one gets the unknown-tool answer, whatever
the surface offers.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError

from statebox import __version__
from statebox.mcp.errors import ToolServerError
from statebox.mcp.hosted import HostedAttempt, is_reserved
from statebox.tools.arguments import ArgumentValidators, unknown_tool_message
from statebox.tools.errors import agent_error_text
from statebox.tools.surface import ToolOutcome, ToolSpec

POLICY_URI = "statebox://policy"
OPENING_MESSAGE_URI = "statebox://opening-message"
ERROR_KIND_META_KEY = "statebox/error_kind"

INSTRUCTIONS = (
    "You are serving a customer. Read the policy (resource statebox://policy) and the "
    "customer's opening message (resource statebox://opening-message), then use the tools."
)

Context = ServerRequestContext[Any]


def build_server(attempt: HostedAttempt, validators: ArgumentValidators | None = None) -> Server[Any]:
    """A low-level MCP server over `attempt`; pass `validators` to share compiled schemas across servers."""
    handlers = _AttemptHandlers(attempt, validators)
    return Server(
        "statebox",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_read_resource=handlers.read_resource,
    )


class _AttemptHandlers:
    """The request handlers of one attempt's server, holding that server's validator cache."""

    def __init__(self, attempt: HostedAttempt, validators: ArgumentValidators | None = None) -> None:
        self._attempt = attempt
        self._validators = validators if validators is not None else ArgumentValidators()

    async def list_tools(self, ctx: Context, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_to_mcp_tool(s) for s in self._specs().values()])

    async def call_tool(self, ctx: Context, params: types.CallToolRequestParams) -> types.CallToolResult:
        specs = self._specs()
        spec = specs.get(params.name)
        if spec is None:
            return _error(unknown_tool_message(params.name, specs), "unknown_tool")
        arguments = params.arguments or {}
        problem = self._validators.check(spec, arguments)
        if problem is not None:
            return _error(problem, "invalid_arguments")
        try:
            outcome = await self._attempt.surface.call_tool(spec.name, arguments)
        except ToolServerError as exc:
            # Infrastructure, not the agent's doing: a protocol error, never an isError result.
            raise MCPError(types.INTERNAL_ERROR, f"tool server failed: {exc}") from exc
        return _to_call_result(outcome)

    async def list_resources(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=POLICY_URI,
                    name="policy",
                    description="The policy the agent must follow in this domain.",
                    mime_type="text/markdown",
                ),
                types.Resource(
                    uri=OPENING_MESSAGE_URI,
                    name="opening-message",
                    description="The customer's first message.",
                    mime_type="text/plain",
                ),
            ]
        )

    async def read_resource(self, ctx: Context, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if params.uri == POLICY_URI:
            text, mime = self._attempt.policy, "text/markdown"
        elif params.uri == OPENING_MESSAGE_URI:
            text, mime = self._attempt.opening_message, "text/plain"
        else:
            known = f"{POLICY_URI}, {OPENING_MESSAGE_URI}"
            raise MCPError(types.INVALID_PARAMS, f"Unknown resource '{params.uri}'. Known: {known}.")
        contents = types.TextResourceContents(uri=params.uri, mime_type=mime, text=text)
        return types.ReadResourceResult(contents=[contents])

    def _specs(self) -> dict[str, ToolSpec]:
        return {spec.name: spec for spec in self._attempt.surface.list_tools() if not is_reserved(spec.name)}


def _to_mcp_tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema,
        annotations=types.ToolAnnotations(read_only_hint=not spec.writes),
    )


def _to_call_result(outcome: ToolOutcome) -> types.CallToolResult:
    meta = {ERROR_KIND_META_KEY: outcome.error_kind} if outcome.error_kind else None
    structured = outcome.data if isinstance(outcome.data, dict) and not outcome.is_error else None
    return types.CallToolResult(
        content=[types.TextContent(text=outcome.text)],
        structured_content=structured,
        is_error=outcome.is_error,
        _meta=meta,
    )


def _error(text: str, kind: str) -> types.CallToolResult:
    return _to_call_result(ToolOutcome(text=agent_error_text(kind, text), is_error=True, error_kind=kind))
