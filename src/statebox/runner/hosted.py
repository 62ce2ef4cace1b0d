"""What a hosted attempt (`statebox serve`, `statebox proxy`, OpenEnv) offers the agent: its tools and the customer.

The attempt itself is `hosted_suite.BackendAttempt`, on the suite's own `AttemptBackend` (a world
session for built-in suites, the benchmark's tool servers for ThinkingBox-Bench); here are the
surface it serves (the tools plus `reply_to_customer`), the unknown-tool answer, and the customer
a creation request asks for.
"""

from __future__ import annotations

from typing import Any

from statebox.agents.transcript import Entry, ToolCallEntry, Transcript
from statebox.llm.client import ModelClient
from statebox.mcp.hosted import is_reserved
from statebox.tasks import Task
from statebox.tools import ToolOutcome, ToolSpec, ToolSurface
from statebox.tools.arguments import unknown_tool_message
from statebox.tools.errors import agent_error_text
from statebox.tools.quoting import shorten
from statebox.tools.surface import CustomerActions
from statebox.users.base import SimulatedCustomer
from statebox.users.llm_customer import LlmCustomer
from statebox.users.scripted import ScriptedCustomer

REPLY_TOOL = ToolSpec(
    name="reply_to_customer",
    description=(
        "Send a message to the customer and get their answer. Use it to ask for information, to confirm, "
        "and to tell them the outcome. The answer says when the customer has ended the conversation."
    ),
    input_schema={
        "type": "object",
        "properties": {"message": {"type": "string", "description": "What you say to the customer."}},
        "required": ["message"],
        "additionalProperties": False,
    },
)


class AttemptSurface:
    """The attempt's tools plus `reply_to_customer` when there is a customer; `__reserved__*` tools never.

    A reserved tool, even one the tools list, is left out of the listing, and calling it gets
    the same answer as any unknown tool.
    """

    def __init__(
        self,
        tools: ToolSurface,
        customer: SimulatedCustomer | None,
        opening_message: str,
        actions: CustomerActions | None = None,
        *,
        logs_calls: bool = True,
    ) -> None:
        self.tools = tools
        self.customer = customer
        self.actions = actions
        self.calls = 0  # tool calls that reached the tools
        self.logs_calls = logs_calls  # False: the caller keeps its own transcript of the calls (an OpenEnv episode)
        self.transcript = Transcript(entries=[Entry(role="customer", content=opening_message)])

    def list_tools(self) -> list[ToolSpec]:
        specs = [s for s in self.tools.list_tools() if not is_reserved(s.name)]
        return [*specs, REPLY_TOOL] if self.customer is not None else specs

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if name == REPLY_TOOL.name and self.customer is not None:
            return await self._reply(str(arguments.get("message", "")))
        if is_reserved(name):
            return self._logged(name, arguments, unknown_tool(name, [s.name for s in self.list_tools()]))
        self.calls += 1
        return self._logged(name, arguments, await self.tools.call_tool(name, arguments))

    def _logged(self, name: str, arguments: dict[str, Any], outcome: ToolOutcome) -> ToolOutcome:
        """The call and its result in the transcript, as `statebox run` logs them, for the trace checks."""
        if self.logs_calls:
            call_id = f"call-{len(self.transcript.entries)}"
            call = ToolCallEntry(id=call_id, name=name, arguments=dict(arguments))
            self.transcript.entries.append(Entry(role="agent", tool_calls=[call]))
            result = Entry(role="tool", tool_call_id=call_id, tool_name=name, content=outcome.text,
                           is_error=outcome.is_error, error_kind=outcome.error_kind)  # fmt: skip
            self.transcript.entries.append(result)
        return outcome

    async def _reply(self, message: str) -> ToolOutcome:
        assert self.customer is not None
        if self.transcript.finish_reason == "customer_ended":
            return ToolOutcome(
                text="Error (precondition_failed): the customer has already ended the conversation.",
                is_error=True,
                error_kind="precondition_failed",
            )
        self.transcript.entries.append(Entry(role="agent", content=message))
        answer = await self.customer.reply(self.transcript.visible(), self.actions)
        if answer.text:
            self.transcript.entries.append(Entry(role="customer", content=answer.text))
        if answer.ended:
            self.transcript.finish_reason = "customer_ended"
            self.transcript.customer_end_reason = answer.end_reason
            note = f"[The customer has ended the conversation ({answer.end_reason}).]"
            return ToolOutcome(text=f"{answer.text}\n{note}".strip())
        return ToolOutcome(text=answer.text)


def unknown_tool(name: str, available: list[str]) -> ToolOutcome:
    """The answer to a call of a tool the agent was not offered (reserved ones included)."""
    text = agent_error_text("unknown_tool", unknown_tool_message(name, available))
    return ToolOutcome(text=text, is_error=True, error_kind="unknown_tool")


def make_customer(user: str | None, task: Task, user_client: ModelClient | None) -> SimulatedCustomer | None:
    """The customer a creation request asks for: none, the task's scripted one, or an LLM playing it."""
    if user is None:
        return None
    if user == "scripted":
        return ScriptedCustomer(task.customer)
    if user == "llm":
        if user_client is None:
            raise ValueError("user 'llm' needs a user model: start the proxy with --user-model")
        return LlmCustomer(user_client, task.customer)
    raise ValueError(f"user must be 'scripted', 'llm' or null, not {shorten(user)!r}")
