"""An episode's tools in the forms agents take them: the two conversation tools, and OpenAI's function format.

An OpenEnv episode offers the task's tools plus `reply_to_customer` (the message and its answer) and
`end_episode` (the end, then the verdict), so an agent that only calls tools — OpenEnv's
`MCPToolClient`, a model with function calling — can play a whole episode. `openai_tools` gives any
tool list (statebox's `ToolSpec`s, or the `Tool`s `MCPToolClient.list_tools()` returns) as Chat
Completions' `tools`, `strict` exactly when strict mode accepts the schema (every built-in tool).
Needs no OpenEnv.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from statebox.llm.strict_mode import is_strict_valid
from statebox.runner.hosted import REPLY_TOOL
from statebox.tools import ToolSpec

END_TOOL = ToolSpec(
    name="end_episode",
    description=(
        "End the episode once the customer's request is dealt with: the end state is judged and the reward given. "
        "`message` is a last message to the customer (no answer is awaited), or null."
    ),
    input_schema={
        "type": "object",
        "properties": {"message": {"type": ["string", "null"], "description": "A last message to the customer."}},
        "required": ["message"],
        "additionalProperties": False,
    },
)
CONVERSATION_TOOLS = (REPLY_TOOL, END_TOOL)


class NamedSchema(Protocol):
    """A tool as statebox (`ToolSpec`) and OpenEnv (`mcp_types.Tool`) both describe it."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def input_schema(self) -> dict[str, Any]: ...


def openai_tools(tools: Iterable[NamedSchema]) -> list[dict[str, Any]]:
    """`[{"type": "function", "function": {name, description, parameters, strict}}]`, as Chat Completions takes them."""
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": t.input_schema,
                "strict": is_strict_valid(t.input_schema),
            },
        }
        for t in tools
    ]
